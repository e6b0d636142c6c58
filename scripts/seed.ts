// npm run seed: writes the demo data into the configured table (DYNAMODB_ENDPOINT, TABLE_NAME).
import { ensureTable } from '#core/db';
import { seedDemoData } from './seed/index';

await ensureTable();
console.log(await seedDemoData());
