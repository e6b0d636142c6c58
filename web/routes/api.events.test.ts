import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import { action } from './api.events';

function send(body: unknown) {
  const request = new Request('http://localhost/api/events', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: {
      'Content-Type': 'application/json',
      'X-Forwarded-For': `10.2.0.${Math.floor(Math.random() * 250)}`,
    },
  });
  return action({ request, params: {}, context: {} });
}

describe('POST /api/events', () => {
  it('stores a page view with utm, raud and vus', async () => {
    const path = `/p/${ulid().toLowerCase()}`;
    expect(
      (await send({ name: 'page_view', path, utm: 'launch', raud: 'defi', vus: 'ip' })).status,
    ).toBe(204);
    const events = await Analytics.forDay(new Date().toISOString().slice(0, 10));
    expect(events.find((e) => e.path === path)).toMatchObject({
      utm: 'launch',
      raud: 'defi',
      vus: 'ip',
    });
  });

  it('refuses an unknown event with a 400', async () => {
    const response = await send({ name: 'purchase', path: '/' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'input.invalid', message: 'Unknown event' },
    });
  });
});
