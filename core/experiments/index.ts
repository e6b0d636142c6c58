// Experiments (ADR 0041): operators compare prompts, models and settings on frozen datasets before
// they change what readers get. A run is executed as a job on the same runtime as production, in a
// slot of its own; its results are kept with the run and never touch production's scores, picks,
// posts or cards. Only 'promote' (a scoring run's prompt and model) changes production, through the
// scoring foundation's promote.
export * from './catalog';
export * from './types';
