// The feed's rating filter and image toggle. The filter is a GET form (the ratings are in the
// URL, so Back and a reload keep them); with JavaScript it applies as a box is ticked. The image
// toggle posts the reader's choice, which is kept on their record (spec: default shown); it says
// what it will do ('Hide images' while they show).
import { Form, useFetcher, useSubmit } from '@remix-run/react';
import type { RelevanceLabel } from '#core/ai';

type Props = {
  ratings: RelevanceLabel[];
  options: { label: RelevanceLabel; count: number }[];
  showImages: boolean;
  onImages(show: boolean): void;
};

export function FeedControls({ ratings, options, showImages, onImages }: Props) {
  const submit = useSubmit();
  const images = useFetcher();
  return (
    <div className="feed__controls">
      <Form
        method="get"
        className="rating-filter"
        preventScrollReset
        onChange={(event) => submit(event.currentTarget, { preventScrollReset: true })}
      >
        <fieldset>
          <legend>Show stories rated</legend>
          {options.map(({ label, count }) => (
            <label key={label} className="rating-filter__option">
              <input
                type="checkbox"
                name="rating"
                value={label}
                defaultChecked={ratings.includes(label)}
                key={`${label}-${ratings.includes(label)}`}
              />{' '}
              {label} <span className="rating-filter__count">({count})</span>
            </label>
          ))}
          <noscript>
            <button type="submit" className="button button--small">
              Show
            </button>
          </noscript>
        </fieldset>
      </Form>
      <images.Form
        method="post"
        className="image-toggle"
        preventScrollReset
        onSubmit={() => onImages(!showImages)}
      >
        <input type="hidden" name="intent" value="images" />
        <input type="hidden" name="showImages" value={String(!showImages)} />
        <button type="submit" className="button button--ghost button--small">
          {showImages ? 'Hide images' : 'Show images'}
        </button>
      </images.Form>
    </div>
  );
}
