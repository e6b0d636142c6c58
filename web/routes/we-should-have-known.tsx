// /we-should-have-known: 'We're sorry; we should have known', then the suggest-audiences form for subscribed readers.
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { SuggestionsPage } from '#web/components/suggestions-page';
import { privatePageHeaders } from '#web/lib/cache';
import { suggestionsAction, suggestionsLoader } from '#web/lib/suggestions.server';

export const meta: MetaFunction = () => [{ title: "We're sorry; we should have known · Cluefeed" }];
export const headers = privatePageHeaders;
export const loader = suggestionsLoader;
export const action = (args: ActionFunctionArgs) => suggestionsAction(args, true);

export default function WeShouldHaveKnown() {
  return (
    <SuggestionsPage
      title="We're sorry; we should have known"
      text="None of our upcoming niches fits you yet. Tell us which audiences we are missing and we will look into them."
    />
  );
}
