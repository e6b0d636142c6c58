// Pre-success page /subscribed-to-newsletter/:slug?: check your inbox, and suggest audiences.
import type { ActionFunctionArgs, MetaFunction } from '@remix-run/node';
import { SuggestForm } from '#web/components/suggest-form';
import { privatePageHeaders } from '#web/lib/cache';
import { suggestionsAction } from '#web/lib/suggestions.server';

export const meta: MetaFunction = () => [{ title: 'Check your inbox · Cluefeed' }];
export const headers = privatePageHeaders;
export const action = (args: ActionFunctionArgs) => suggestionsAction(args, false);

export default function SubscribedToNewsletter() {
  return (
    <section className="page narrow">
      <h1>Almost there!</h1>
      <p className="lede">
        Check your inbox and click the link in our e-mail to confirm your subscription. Your first
        stories arrive right after.
      </p>
      <SuggestForm />
    </section>
  );
}
