// The editable audience cloud: each audience subscribes or unsubscribes at once; a newly selected
// audience's frequency shows for 1.5 seconds in one status line below the cloud, which keeps its
// height, so no chip moves when the hint comes and goes.
import { useFetcher } from '@remix-run/react';
import { useEffect, useState } from 'react';

export const FREQUENCY_HINT_MS = 1_500;

type Audience = { id: string; title: string; frequency: 'daily' | 'weekly' };

function AudienceToggle({
  audience,
  selected,
  onSelect,
}: {
  audience: Audience;
  selected: boolean;
  onSelect: () => void;
}) {
  const fetcher = useFetcher();
  const pending = fetcher.formData?.get('subscribed');
  const on = pending === undefined || pending === null ? selected : pending === 'true';

  return (
    <fetcher.Form
      method="post"
      className="toggle"
      preventScrollReset
      onSubmit={() => {
        if (!on) onSelect();
      }}
    >
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="audienceId" value={audience.id} />
      <input type="hidden" name="subscribed" value={String(!on)} />
      <button type="submit" className="cloud__item cloud__toggle" aria-pressed={on}>
        {audience.title}
      </button>
    </fetcher.Form>
  );
}

/** The audience cloud of SelectMoreAudiences and the preferences page. */
export function AudienceCloud({
  audiences,
  selected,
}: {
  audiences: Audience[];
  selected: string[];
}) {
  const chosen = new Set(selected);
  // A new object per selection, so selecting the same audience again restarts the 1.5 seconds.
  const [hint, setHint] = useState<{ audience: Audience } | null>(null);

  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(() => setHint(null), FREQUENCY_HINT_MS);
    return () => clearTimeout(timer);
  }, [hint]);

  return (
    <>
      <ul className="cloud cloud--large">
        {audiences.map((audience) => (
          <li key={audience.id}>
            <AudienceToggle
              audience={audience}
              selected={chosen.has(audience.id)}
              onSelect={() => setHint({ audience })}
            />
          </li>
        ))}
      </ul>
      <p className="toggle__hint" role="status">
        {hint &&
          `${hint.audience.title}: ${hint.audience.frequency === 'daily' ? 'Daily, readable in 5 minutes' : 'Weekly'}`}
      </p>
    </>
  );
}
