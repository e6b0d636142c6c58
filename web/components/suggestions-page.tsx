// The negative and positive suggestion pages (and the post-subscription one): a title, then the
// suggest-audiences form for subscribed readers.
import { useLoaderData, useNavigation } from '@remix-run/react';
import type { suggestionsLoader } from '#web/lib/suggestions.server';
import { LinkError } from './link-error';
import { SuggestForm } from './suggest-form';

export function SuggestionsPage({ title, text }: { title: string; text: string }) {
  const page = useLoaderData<typeof suggestionsLoader>();
  const navigation = useNavigation();
  if (navigation.state === 'loading' && !navigation.formData) {
    return (
      <section className="page narrow center" aria-busy="true">
        <p>Please wait...</p>
      </section>
    );
  }
  if (!page.ok) return <LinkError message={page.error} />;
  return (
    <section className="page narrow">
      <h1>{title}</h1>
      <p className="lede">{text}</p>
      {page.status === 'subscribed' ? (
        <SuggestForm />
      ) : (
        <p className="notice">
          Confirm your subscription from the e-mail we sent you to share your ideas.
        </p>
      )}
    </section>
  );
}
