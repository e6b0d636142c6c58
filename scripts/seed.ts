// npm run seed: writes the demo data into the configured table (DYNAMODB_ENDPOINT, TABLE_NAME).
import { ensureTable } from '#core/db';
import { seedDemoData } from './seed/index';

// Seeding sends no mail and builds no links, so it needs neither PUBLIC_URL nor SMTP_URL.
process.env.NODE_ENV ??= 'development';
await ensureTable();
console.log(await seedDemoData());
