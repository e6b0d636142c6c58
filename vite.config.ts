// Remix app build: appDirectory web/, every v3 future flag on.
import { fileURLToPath } from 'node:url';
import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  publicDir: 'web/public',
  resolve: { alias: { '#web': fileURLToPath(new URL('./web', import.meta.url)) } },
  plugins: [
    remix({
      appDirectory: 'web',
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
    }),
  ],
});
