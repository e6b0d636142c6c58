// The Remix app (`remix vite:build` into build/) as a Lambda server behind the Router's CloudFront.
import { NATIVE_MODULES, serverEnvironment, serverLinks } from './environment';
import { router } from './router';

export const web = new sst.aws.Remix('Web', {
  path: '.',
  buildCommand: 'npm run build',
  buildDirectory: 'build',
  router: { instance: router },
  link: serverLinks,
  environment: serverEnvironment,
  server: {
    runtime: 'nodejs22.x',
    memory: '1024 MB',
    timeout: '20 seconds',
    install: NATIVE_MODULES,
  },
});

export { router };
