import { describe, expect, it } from 'vitest';
import { parseConfig } from '#core/config';

const base = { APP_SECRET: 'a-secret-that-is-long-enough-0123456789abcdef' };
const production = {
  ...base,
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://cluefeed.xyz',
  SMTP_URL: 'smtps://user:pass@smtp.example:465',
};

describe('parseConfig', () => {
  it('refuses to start in production without PUBLIC_URL and SMTP_URL, naming both', () => {
    expect(() => parseConfig(base)).toThrowError(
      'Invalid configuration: PUBLIC_URL is required when NODE_ENV=production; SMTP_URL is required when NODE_ENV=production',
    );
    expect(() => parseConfig({ ...production, SMTP_URL: undefined })).toThrowError(
      'Invalid configuration: SMTP_URL is required when NODE_ENV=production',
    );
  });

  it('uses the settings it is given in production', () => {
    expect(parseConfig(production)).toMatchObject({
      PUBLIC_URL: 'https://cluefeed.xyz',
      SMTP_URL: 'smtps://user:pass@smtp.example:465',
    });
  });

  it('defaults PUBLIC_URL and SMTP_URL to this machine outside production', () => {
    for (const NODE_ENV of ['development', 'test']) {
      expect(parseConfig({ ...base, NODE_ENV })).toMatchObject({
        PUBLIC_URL: 'http://localhost:3000',
        SMTP_URL: 'smtp://127.0.0.1:2525',
      });
    }
  });

  it("reads the OpenAI secret's default 'unset' (and a blank key) as no key", () => {
    expect(parseConfig({ ...production, OPENAI_API_KEY: 'unset' }).OPENAI_API_KEY).toBeUndefined();
    expect(parseConfig({ ...production, OPENAI_API_KEY: ' ' }).OPENAI_API_KEY).toBeUndefined();
    expect(parseConfig({ ...production, OPENAI_API_KEY: 'sk-live' }).OPENAI_API_KEY).toBe(
      'sk-live',
    );
  });

  it('reads FEED_FETCH_ALLOW as trimmed host names, addresses and CIDR ranges', () => {
    expect(parseConfig(production).FEED_FETCH_ALLOW).toEqual([]);
    expect(
      parseConfig({
        ...production,
        FEED_FETCH_ALLOW: ' 127.0.0.1, Feeds.Internal ,10.0.0.0/8,::1,fd00::/8,',
      }).FEED_FETCH_ALLOW,
    ).toEqual(['127.0.0.1', 'feeds.internal', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it('refuses FEED_FETCH_ALLOW entries that are neither hosts nor networks', () => {
    for (const entry of ['10.0.0.0/33', 'http://127.0.0.1', 'a b', '::1/129', '10.0.0.0/x']) {
      expect(() => parseConfig({ ...production, FEED_FETCH_ALLOW: entry })).toThrowError(
        'FEED_FETCH_ALLOW entries must be host names, IP addresses or CIDR ranges',
      );
    }
  });

  it('names every bad field at once', () => {
    expect(() =>
      parseConfig({ ...production, APP_SECRET: 'short', PUBLIC_URL: 'not a url' }),
    ).toThrowError(/APP_SECRET: APP_SECRET must be at least 32 characters; PUBLIC_URL: /);
  });
});
