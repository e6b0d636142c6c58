// Readers who can sign in, for tests and journeys: a user with descriptors and a password (set
// directly as its argon2id hash; the funnel's own password step is tested with the funnel).
import { hash } from '@node-rs/argon2';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import * as Users from '#core/users';

export const READER_PASSWORD = 'reader-password-1';

export async function readerWithPassword(
  options: {
    password?: string | null;
    isActive?: boolean;
    clues?: string[];
    name?: string;
    domain?: string;
  } = {},
) {
  const email = `reader-${ulid().toLowerCase()}@${options.domain ?? 'example.org'}`;
  const user = await Users.create({
    name: options.name ?? 'Ada Reader',
    email,
    isActive: options.isActive ?? true,
    status: 'Onboarded',
  });
  if (options.clues?.length) await Users.setDescriptors(user.id, options.clues);
  const password = options.password === undefined ? READER_PASSWORD : options.password;
  if (password !== null) {
    await Users.UserEntity.patch({ id: user.id })
      .set({ passwordHash: await hash(password, Auth.PASSWORD_HASHING) })
      .go();
  }
  return { user, email, password: password ?? '' };
}
