// What only the local runtime seeds: the first admin and a few streams served from the fixture
// feeds, so sign-in and import work offline.
import { readdirSync } from 'node:fs';
import * as Auth from '#core/auth';
import * as Streams from '#core/streams';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';

/** Creates the admin on the first start; the generated password is printed that once. */
export async function ensureLocalAdmin(
  userName: string,
  password: string | undefined,
): Promise<string> {
  const result = await Auth.ensureAdmin({ userName, password });
  if (!result.created)
    return `Admin login: ${userName} (password as printed on the first start, or ADMIN_PASSWORD)`;
  return result.generated
    ? `Admin login: ${userName} / ${result.password}  (generated now and shown only once; set ADMIN_PASSWORD to choose one)`
    : `Admin login: ${userName} / the ADMIN_PASSWORD you set`;
}

const streamName = (file: string) =>
  file
    .replace(/\.(xml|json)$/, '')
    .split('-')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');

/** One stream per fixture feed (the broken one included, to show a failing import). */
export async function seedLocalStreams(feedOrigin: string): Promise<number> {
  const files = readdirSync(FIXTURE_FEEDS_DIR).filter((file) => /\.(xml|json)$/.test(file));
  for (const file of files)
    await Streams.create({ name: streamName(file), url: `${feedOrigin}/${file}` });
  return files.length;
}
