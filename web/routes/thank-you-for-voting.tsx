// /thank-you-for-voting: 'Thank you for voting!', then the suggest-audiences form for subscribed readers.
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { SuggestionsPage } from '#web/components/suggestions-page';
import { privatePageHeaders } from '#web/lib/cache';
import { suggestionsAction, suggestionsLoader } from '#web/lib/suggestions.server';

export const meta: MetaFunction = () => [{ title: 'Thank you for voting! · Cluefeed' }];
export const headers = privatePageHeaders;
export const loader = suggestionsLoader;
export const action = (args: ActionFunctionArgs) => suggestionsAction(args, true);

export default function ThankYouForVoting() {
  return (
    <SuggestionsPage
      title="Thank you for voting!"
      text="Your votes help us decide which niches to open next."
    />
  );
}
