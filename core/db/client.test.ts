import { describe, expect, it } from 'vitest';
import { sqs } from '../jobs/queue';
import { db } from './client';

describe('the SDK clients', () => {
  it('leave out the SDK logging step, which copied every request and answer for a silent logger', () => {
    expect(db().client.middlewareStack.identify().join(' ')).not.toMatch(/loggerMiddleware/);
    expect(sqs().middlewareStack.identify().join(' ')).not.toMatch(/loggerMiddleware/);
    // Still counted (the storage-call tests read this step).
    expect(db().client.middlewareStack.identify().join(' ')).toMatch(/countStorageCalls/);
  });
});
