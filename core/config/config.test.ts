import { describe, expect, it } from 'vitest';
import { linkedSecrets, parseConfig, parseFetchAllowEntry, SECRET_PLACEHOLDER } from '#core/config';

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

  it('reads FEED_FETCH_ALLOW as trimmed host names, addresses, CIDR ranges and host:port', () => {
    expect(parseConfig(production).FEED_FETCH_ALLOW).toEqual([]);
    expect(
      parseConfig({
        ...production,
        FEED_FETCH_ALLOW:
          ' 127.0.0.1, Feeds.Internal ,10.0.0.0/8,::1,fd00::/8,127.0.0.1:4590, [::1]:65535,feeds.internal:8080',
      }).FEED_FETCH_ALLOW,
    ).toEqual([
      '127.0.0.1',
      'feeds.internal',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '127.0.0.1:4590',
      '[::1]:65535',
      'feeds.internal:8080',
    ]);
    expect(parseFetchAllowEntry('127.0.0.1:4590')).toEqual({
      host: '127.0.0.1',
      family: 4,
      port: 4590,
    });
    expect(parseFetchAllowEntry('[::1]:4590')).toEqual({ host: '::1', family: 6, port: 4590 });
    expect(parseFetchAllowEntry('feeds.internal:80')).toEqual({
      host: 'feeds.internal',
      family: 0,
      port: 80,
    });
    expect(parseFetchAllowEntry('10.0.0.0/8')).toEqual({ host: '10.0.0.0', family: 4, prefix: 8 });
    expect(parseFetchAllowEntry('::1')).toEqual({ host: '::1', family: 6 });
  });

  it('reads MODEL_FETCH_ALLOW in the same forms, empty (every private address refused) by default', () => {
    expect(parseConfig(production).MODEL_FETCH_ALLOW).toEqual([]);
    expect(
      parseConfig({ ...production, MODEL_FETCH_ALLOW: ' 127.0.0.1:11434, Ollama.Internal ' })
        .MODEL_FETCH_ALLOW,
    ).toEqual(['127.0.0.1:11434', 'ollama.internal']);
    expect(() =>
      parseConfig({ ...production, MODEL_FETCH_ALLOW: 'http://127.0.0.1:11434/v1' }),
    ).toThrowError(
      'MODEL_FETCH_ALLOW entries must be host names, IP addresses, CIDR ranges or host:port',
    );
  });

  it('refuses FEED_FETCH_ALLOW entries that are neither hosts, networks nor origins', () => {
    for (const entry of [
      '10.0.0.0/33',
      'http://127.0.0.1',
      'a b',
      '::1/129',
      '10.0.0.0/x',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '127.0.0.1:x',
      'feeds.internal:',
      '[127.0.0.1]:80',
      '[feeds.internal]:80',
      '[fd00::/8]:80',
      '10.0.0.0/8:80',
      ':80',
    ]) {
      expect(() => parseConfig({ ...production, FEED_FETCH_ALLOW: entry }), entry).toThrowError(
        'FEED_FETCH_ALLOW entries must be host names, IP addresses, CIDR ranges or host:port',
      );
    }
  });

  it('fails MAILING_LIST=mailchimp while the MailchimpApiKey secret holds its placeholder, naming the secret', () => {
    const mailchimp = {
      ...production,
      MAILING_LIST: 'mailchimp',
      MAILCHIMP_SERVER_PREFIX: 'us21',
      MAILCHIMP_LIST_ID: 'list-1',
    };
    expect(() => parseConfig({ ...mailchimp, MAILCHIMP_API_KEY: SECRET_PLACEHOLDER })).toThrowError(
      'Invalid configuration: MAILING_LIST=mailchimp needs MAILCHIMP_API_KEY (the MailchimpApiKey secret still holds a placeholder: npx sst secret set MailchimpApiKey <value>)',
    );
    expect(() => parseConfig({ ...mailchimp, MAILCHIMP_API_KEY: ' ChangeMe ' })).toThrowError(
      /MAILCHIMP_API_KEY \(the MailchimpApiKey secret still holds a placeholder/,
    );
    expect(parseConfig({ ...mailchimp, MAILCHIMP_API_KEY: 'key-us21' }).MAILCHIMP_API_KEY).toBe(
      'key-us21',
    );
  });

  it('fails the start when a required secret holds a placeholder, naming the secret to set', () => {
    expect(() => parseConfig({ ...production, SMTP_URL: 'unset' })).toThrowError(
      'Invalid configuration: SMTP_URL (the SmtpUrl secret still holds a placeholder: npx sst secret set SmtpUrl <value>) is required when NODE_ENV=production',
    );
    expect(() => parseConfig({ ...production, APP_SECRET: 'unset' })).toThrowError(
      /APP_SECRET \(the AppSecret secret still holds a placeholder: npx sst secret set AppSecret <value>\)/,
    );
  });

  it('reads a placeholder OpenAI-compatible key as no key, so none is sent', () => {
    expect(
      parseConfig({ ...production, OPENAI_COMPATIBLE_API_KEY: 'unset' }).OPENAI_COMPATIBLE_API_KEY,
    ).toBeUndefined();
  });

  it('names every bad field at once', () => {
    expect(() =>
      parseConfig({ ...production, APP_SECRET: 'short', PUBLIC_URL: 'not a url' }),
    ).toThrowError(/APP_SECRET: APP_SECRET must be at least 32 characters; PUBLIC_URL: /);
  });
});

describe('linkedSecrets', () => {
  it('reads the secrets SST links, by setting name, and nothing unlinked', () => {
    expect(linkedSecrets()).toEqual({});
    // Where SST's Resource keeps the links it decrypted from the bundle (or read from sst shell).
    const links = (globalThis as { __SST_RESOURCE_RAW__?: Record<string, unknown> })
      .__SST_RESOURCE_RAW__!;
    links.SmtpUrl = { type: 'sst.sst.Secret', value: 'smtps://user:pass@linked.example:465' };
    try {
      expect(linkedSecrets()).toEqual({ SMTP_URL: 'smtps://user:pass@linked.example:465' });
    } finally {
      delete links.SmtpUrl;
    }
  });
});
