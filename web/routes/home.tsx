// Home: the waiting-list landing page, and the audience newsletters anyone can get today (the same
// story as About). A public document (ADR 35).
import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { isVisibleError, trackingFrom } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Waitlist from '#core/waitlist';
import { useLoaderData } from '@remix-run/react';
import { publicConfig } from '#core/config';
import { AudienceStart, WAITLIST_OFFER } from '#web/components/audience-start';
import { WaitlistForm, type WaitlistActionData } from '#web/components/waitlist-form';
import { clientIp, readForm } from '#web/lib/api.server';
import { publicPageHeaders } from '#web/lib/cache';
import { clientLoader, handle } from '#web/lib/public-document';

export const meta: MetaFunction = () => [
  { title: "Cluefeed · Discover the news you're missing" },
  {
    name: 'description',
    content: 'An AI agent finds the web3 stories that matter to you and explains them.',
  },
];
export const headers = publicPageHeaders;
export { clientLoader, handle };

export function loader() {
  return { contactEmail: publicConfig().contactEmail };
}

/** Without JavaScript the form posts here; with it, the form uses /api/token and /api/submit-email. */
export async function action({ request }: ActionFunctionArgs) {
  try {
    const form = await readForm(request);
    await RateLimit.hit(RateLimit.LIMITS.waitlistPerIp, clientIp(request));
    await Waitlist.join({
      email: String(form.get('email') ?? ''),
      ...trackingFrom(new URL(request.url).searchParams),
    });
    return { ok: true } satisfies WaitlistActionData;
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    const fieldError = error.code === 'input.invalid' ? error.message : undefined;
    return data({ ok: false, fieldError } satisfies WaitlistActionData, { status: error.status });
  }
}

export default function Home() {
  const { contactEmail } = useLoaderData<typeof loader>();
  return (
    <div className="landing">
      <section className="landing__hero">
        <h1>Discover the news you&apos;re missing.</h1>
        <p className="landing__subtitle">
          Every day our AI agent reads the whole web3 world and delivers the stories that matter to
          you, picked and explained by our editors.
        </p>
        <p>{WAITLIST_OFFER}</p>
        <WaitlistForm contactEmail={contactEmail} />
      </section>
      <AudienceStart className="landing__start" />
    </div>
  );
}
