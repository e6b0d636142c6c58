// Every action of the route table gets RUNS structurally bad requests (wrong methods, content
// types, bodies, forged tokens), without anyone listing it here: a 4xx and nothing stored, or for
// admin routes the sign-in redirect. Field-aware fuzzing of each form is in forms.fuzz.test.ts.
import { beforeAll, describe, it } from 'vitest';
import { fuzz, garbageRequest } from '#tests/integration/fuzz';
import { routeTable, type SweptRoute } from '#tests/integration/route-table';
import { seedSweepWorld, sweepTable, type SweepWorld } from '#tests/integration/sweep-world';

const actions = (await routeTable()).filter((route) => route.module.action);

sweepTable('actions');

let world: SweepWorld;
beforeAll(async () => {
  world = await seedSweepWorld();
});

describe('every action answers garbage with a 4xx and stores nothing', () => {
  it.each(actions.map((route) => [route.pattern, route]))(
    '%s',
    async (_pattern, route: SweptRoute) => {
      if (route.access === 'public') return fuzz(route, world.samples, garbageRequest);
      // Without a session, a protected route answers only its sign-in redirect or a 401/403.
      const signIn = route.access === 'admin' ? '/admin-panel/authorize' : '/login';
      return fuzz(
        route,
        world.samples,
        garbageRequest,
        (answer) =>
          answer.status === 401 ||
          answer.status === 403 ||
          (answer.status >= 300 && answer.status < 400 && !!answer.location?.startsWith(signIn)),
      );
    },
    60_000,
  );
});
