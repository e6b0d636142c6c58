import { describe, expect, it } from 'vitest';
import { clientIp, rateLimitClient, readForm, readJson } from './api.server';

const post = (body: string, type: string, method = 'POST') =>
  new Request('http://localhost/x', { method, body, headers: { 'Content-Type': type } });

describe('request bodies', () => {
  it('reads a url-encoded form', async () => {
    const form = await readForm(
      post('email=a%40b.org&intent=toggle', 'application/x-www-form-urlencoded'),
    );
    expect([form.get('email'), form.get('intent')]).toEqual(['a@b.org', 'toggle']);
  });

  it('refuses another method, another type and an oversized form with a 4xx', async () => {
    await expect(
      readForm(post('a=1', 'application/x-www-form-urlencoded', 'PUT')),
    ).rejects.toMatchObject({ status: 405 });
    await expect(readForm(post('{"a":1}', 'application/json'))).rejects.toMatchObject({
      status: 415,
    });
    await expect(
      readForm(post(`a=${'x'.repeat(20_000)}`, 'application/x-www-form-urlencoded')),
    ).rejects.toMatchObject({
      status: 413,
    });
  });

  it('refuses JSON that is not an object', async () => {
    await expect(readJson(post('[1,2]', 'application/json'), 1024)).rejects.toMatchObject({
      status: 400,
    });
    await expect(readJson(post('{"a":', 'application/json'), 1024)).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('rateLimitClient', () => {
  it('counts an IPv6 caller by its /64, an IPv4-mapped one by its IPv4 address', () => {
    expect(rateLimitClient('2001:db8:a:7::1')).toBe('2001:db8:a:7::/64');
    expect(rateLimitClient('2001:0db8:000a:0007:ffff:1:2:3')).toBe('2001:db8:a:7::/64');
    expect(rateLimitClient('2001:db8::beef')).toBe('2001:db8:0:0::/64');
    expect(rateLimitClient('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitClient('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitClient('x'.repeat(500))).toHaveLength(64);
    expect(rateLimitClient('')).toBe('unknown');
  });
});

describe('clientIp', () => {
  it("trusts only the front door's viewer address, never a CloudFront header a client sent", () => {
    const spoofed = new Request('http://localhost/x', {
      headers: {
        'CloudFront-Viewer-Address': '198.51.100.7:443',
        'X-Forwarded-For': '203.0.113.9',
      },
    });
    expect(clientIp(spoofed)).toBe('203.0.113.9');
    const labelled = new Request('http://localhost/x', {
      headers: { 'X-Viewer-Address': '203.0.113.10', 'X-Forwarded-For': '198.51.100.7' },
    });
    expect(clientIp(labelled)).toBe('203.0.113.10');
  });
});

describe('media types', () => {
  it('reads forms and JSON whatever the case of their media type', async () => {
    const form = await readForm(post('a=1', 'Application/X-WWW-Form-Urlencoded; Charset=UTF-8'));
    expect(form.get('a')).toBe('1');
    expect(await readJson(post('{"a":1}', 'Application/JSON'), 100)).toEqual({ a: 1 });
  });
});
