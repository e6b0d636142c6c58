// /subscribed-to-newsletter-suggestions: 'What else should we cover?', then the suggest-audiences form for subscribed readers.
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { SuggestionsPage } from '#web/components/suggestions-page';
import { privatePageHeaders } from '#web/lib/cache';
import { suggestionsAction, suggestionsLoader } from '#web/lib/suggestions.server';

export const meta: MetaFunction = () => [{ title: 'What else should we cover? · Cluefeed' }];
export const headers = privatePageHeaders;
export const loader = suggestionsLoader;
export const action = (args: ActionFunctionArgs) => suggestionsAction(args, true);

export default function SubscribedToNewsletterSuggestions() {
  return (
    <SuggestionsPage
      title="What else should we cover?"
      text="Our editors open new audiences every month, many of them suggested by readers like you."
    />
  );
}
