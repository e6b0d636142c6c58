import { describe, expect, it } from 'vitest';
import { safeAdminPath } from './admin.server';

describe('safeAdminPath', () => {
  it('keeps admin paths with their query', () => {
    expect(safeAdminPath('/admin-panel/logs?date=2026-01-01')).toBe(
      '/admin-panel/logs?date=2026-01-01',
    );
  });

  it('refuses paths that would leave the panel or loop back to sign-in', () => {
    for (const path of [
      '/about',
      'https://evil.example/admin-panel/logs',
      '//evil.example/admin-panel/',
      '/admin-panel/../../evil',
      '/admin-panel/%2e%2e/about',
      '/admin-panel/..%2fabout',
      '/admin-panel/authorize?returnUrl=/admin-panel/logs',
      '/admin-panel\\\\evil',
      null,
      undefined,
    ]) {
      expect(safeAdminPath(path), String(path)).toBeUndefined();
    }
  });
});
