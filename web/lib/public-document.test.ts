import { describe, expect, it } from 'vitest';
import * as About from '#web/routes/about';
import * as Audience from '#web/routes/audience';
import * as ContentCard from '#web/routes/content-card';
import * as Home from '#web/routes/home';
import * as Login from '#web/routes/login';
import * as Post from '#web/routes/post';
import { handle, isPublicDocument, linksToPublicDocument } from './public-document';

describe('public documents', () => {
  it('names the home, audience, post and content card paths, and no other', () => {
    for (const path of ['/', '/a/defi-builders', '/p/a-post', '/cc/a-card-01J', '/a/x/'])
      expect(isPublicDocument(path), path).toBe(true);
    for (const path of ['/about', '/a', '/a/x/y', '/p/', '/get-started', '/admin-panel', '/feed'])
      expect(isPublicDocument(path), path).toBe(false);
  });

  it('tells links to them by their path, whatever query or fragment follows', () => {
    expect(linksToPublicDocument('/a/defi-builders?utm=spring#subscribe')).toBe(true);
    expect(linksToPublicDocument('/?raud=x')).toBe(true);
    expect(linksToPublicDocument('?expect=1')).toBe(false);
    expect(linksToPublicDocument('/about?utm=spring')).toBe(false);
  });

  it('is what the routes of those paths declare, and app routes do not', () => {
    for (const route of [Home, Audience, Post, ContentCard]) {
      expect(route.handle).toBe(handle);
      expect(route.clientLoader).toBeTypeOf('function');
    }
    for (const route of [About, Login]) expect('handle' in route).toBe(false);
  });
});
