// The worker can deliver every kind of outbox message: loading it alone (as Lambda and the local
// worker do) registers each kind's hooks, so none is refused as unregistered.
import { expect, it, vi } from 'vitest';

it(
  'registers every outbox kind when the worker loads, in a fresh module graph',
  { timeout: 60_000 },
  async () => {
    vi.resetModules();
    await import('./worker');
    const Outbox = await import('#core/outbox');
    const { TEMPLATES } = await import('../core/outbox/templates');
    // The e-mails' kinds, and the mailing-list mirror's (no template: it tells Mailchimp).
    expect(Outbox.registeredKinds()).toEqual(
      expect.arrayContaining([...Object.keys(TEMPLATES), 'mailing-list']),
    );
  },
);
