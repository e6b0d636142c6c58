// Two runs that end at the same moment both see no dataset yet: the starters are frozen once.
import { expect, it } from 'vitest';
import { createArticle } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { seedAi } from '#scripts/seed/ai';
import * as Experiments from './index';

useOwnTable('starter-datasets-race');

it('freezes each starter dataset once when two callers race', async () => {
  await seedAi();
  await createArticle({ title: 'Aave adds isolated lending markets for DeFi builders' });
  const frozen = await Promise.all([
    Experiments.freezeStarterDatasets('admin-a'),
    Experiments.freezeStarterDatasets('admin-b'),
  ]);
  expect(frozen.sort()).toEqual([0, Experiments.STARTER_DATASETS.length]);
  const names = (await Experiments.datasets()).map((dataset) => dataset.name).sort();
  expect(names).toEqual(Experiments.STARTER_DATASETS.map((starter) => starter.name).sort());
  // A later caller freezes nothing more.
  expect(await Experiments.freezeStarterDatasets('admin-c')).toBe(0);
}, 120_000);
