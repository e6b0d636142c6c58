// One audience in a cloud that subscribes or unsubscribes at once; a newly selected audience shows
// its frequency hint for 1.5 seconds.
import { useFetcher } from '@remix-run/react';
import { useEffect, useState } from 'react';

export const FREQUENCY_HINT_MS = 1_500;

type Props = {
  audience: { id: string; title: string; frequency: 'daily' | 'weekly' };
  selected: boolean;
};

export function AudienceToggle({ audience, selected }: Props) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('subscribed');
  const on = pending === undefined || pending === null ? selected : pending === 'true';
  const [hint, setHint] = useState(false);

  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(() => setHint(false), FREQUENCY_HINT_MS);
    return () => clearTimeout(timer);
  }, [hint]);

  return (
    <fetcher.Form method="post" className="toggle" preventScrollReset onSubmit={() => setHint(!on)}>
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="audienceId" value={audience.id} />
      <input type="hidden" name="subscribed" value={String(!on)} />
      <button type="submit" className="cloud__item cloud__toggle" aria-pressed={on}>
        {audience.title}
      </button>
      {hint && (
        <span className="toggle__hint" role="status">
          {audience.frequency === 'daily' ? 'Daily, readable in 5 minutes' : 'Weekly'}
        </span>
      )}
    </fetcher.Form>
  );
}

/** The editable audience cloud of SelectMoreAudiences and the preferences page. */
export function AudienceCloud({
  audiences,
  selected,
}: {
  audiences: Props['audience'][];
  selected: string[];
}) {
  const chosen = new Set(selected);
  return (
    <ul className="cloud cloud--large">
      {audiences.map((audience) => (
        <li key={audience.id}>
          <AudienceToggle audience={audience} selected={chosen.has(audience.id)} />
        </li>
      ))}
    </ul>
  );
}
