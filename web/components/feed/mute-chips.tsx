// What the reader does not want, as chips in the feed's sidebar (ADR 0045): "Not: Solana", "Less:
// DAO treasury", "Less like: <a disliked story>". Each chip's × removes it (a dislike's withdraws
// the dislike) and the feed is rebuilt; a form each, so it works without JavaScript.
import { useFetcher } from '@remix-run/react';
import type { MuteChip } from '#web/lib/feed.server';
import { FEED_TEXTS } from '#web/lib/feed-texts';

function Chip({ chip }: { chip: MuteChip }) {
  const unmute = useFetcher<{ error?: string }>();
  // Gone at once; back, saying why, if the removal is refused.
  if (unmute.state !== 'idle' && unmute.formData) return null;
  const refused = unmute.data?.error;
  return (
    <li className="mute-chip">
      <span>{chip.text}</span>
      <unmute.Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="unmute" />
        <input type="hidden" name="muteId" value={chip.id} />
        <button type="submit" className="mute-chip__remove">
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Remove “{chip.text}”</span>
        </button>
      </unmute.Form>
      {refused && (
        <span className="mute-chip__error" role="alert">
          {refused}
        </span>
      )}
    </li>
  );
}

export function MuteChips({ chips }: { chips: MuteChip[] }) {
  if (chips.length === 0) return null;
  return (
    <section className="feed__mutes" aria-labelledby="feed-mutes">
      <h2 id="feed-mutes">{FEED_TEXTS.mutesTitle}</h2>
      <p className="feed__mutes-hint">{FEED_TEXTS.mutesHint}</p>
      <ul className="mute-chips" aria-labelledby="feed-mutes">
        {chips.map((chip) => (
          <Chip key={chip.id} chip={chip} />
        ))}
      </ul>
    </section>
  );
}
