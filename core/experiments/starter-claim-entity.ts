// ExperimentStarterClaim: the one item that says the starter datasets were claimed for freezing.
import { defineEntity } from '#core/db';

/**
 * The claim on freezing the starter datasets: created once, conditionally, so two runs ending at
 * the same moment (both seeing no dataset yet) do not freeze every starter twice.
 */
export const StarterDatasetsClaimEntity = defineEntity({
  model: { entity: 'experimentStarterClaim', version: '1', service: 'cluefeed' },
  attributes: {
    claimedAt: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
  },
  indexes: {
    // The one claim: pk datasetStarters, sk claim
    claim: {
      pk: { field: 'pk', composite: [], template: 'datasetStarters', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'claim', casing: 'none' },
    },
  },
});
