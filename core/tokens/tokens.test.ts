import { describe, expect, it } from 'vitest';
import * as Tokens from '#core/tokens';

describe('tokens', () => {
  it('verifies a fresh token for its purpose', () => {
    expect(Tokens.verify('waitlist', Tokens.sign('waitlist', 60))).toEqual({ ok: true });
  });

  it('refuses a forged, expired or malformed token', () => {
    const token = Tokens.sign('waitlist', 60);
    const [body] = token.split('.');
    expect(Tokens.verify('waitlist', `${body}.AAAA`)).toEqual({ ok: false, reason: 'forged' });
    expect(Tokens.verify('waitlist', token, Date.now() + 61_000)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(Tokens.verify('waitlist', 'nonsense')).toEqual({ ok: false, reason: 'malformed' });
    expect(Tokens.verify('waitlist', null)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('tells whom an expired token of ours named, and never whom a forged one names', () => {
    const token = Tokens.sign('invite', 60, 'abc');
    expect(Tokens.verify('invite', token, Date.now() + 61_000)).toEqual({
      ok: false,
      reason: 'expired',
      subject: 'abc',
    });
    const [body] = token.split('.');
    expect(Tokens.verify('invite', `${body}.AAAA`, Date.now() + 61_000)).toEqual({
      ok: false,
      reason: 'forged',
    });
  });

  it('carries a subject', () => {
    expect(Tokens.verify('waitlist', Tokens.sign('waitlist', 60, 'abc'))).toEqual({
      ok: true,
      subject: 'abc',
    });
  });
});
