// What the outbox needs to know about each kind of message from the module that makes it, which
// registers it when it loads: whether it is still wanted, what to write with its end and what to
// do after. The outbox itself knows no subscriber, issue or mailing list.
import { createWriteTransaction, type Entity } from 'electrodb';
import type { TransactionWrite } from '#core/db';
import type { OutboundEmail } from './delivery';

/** What a message's owner is told about it: the stored message without its content. */
export type Envelope = Pick<
  OutboundEmail,
  'id' | 'kind' | 'status' | 'to' | 'subscriberId' | 'linkVersion' | 'issueId'
>;
/** The attributes an Envelope is read with. */
export const ENVELOPE = [
  'id',
  'kind',
  'status',
  'to',
  'subscriberId',
  'linkVersion',
  'issueId',
] as const satisfies readonly (keyof Envelope)[];

/** Why a message must not go out any more: `reason` for its owner, `lastError` for the Outbox. */
export type Unwanted<R extends string = string> = { reason: R; lastError: string };

/** How a message's last attempt ended. */
export type Ending<R extends string = string> = {
  status: 'sent' | 'failed' | 'cancelled';
  /** Why it was cancelled, as `unwanted` said. */
  reason?: R;
  lastError?: string;
  smtpMessageId?: string;
  sentAt?: string;
};

/** One write of a transaction, as an ElectroDB entity's `.commit()` makes it. */
export type Write = TransactionWrite;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any entity, as ElectroDB types it
type Entities = Record<string, Entity<any, any, any, any>>;

/**
 * The writes `make` builds with `entities`, for a `settling` hook: the outbox makes them in its
 * own transaction. (ElectroDB hands a transaction the entities as they are; only their types
 * gain `.commit()`.)
 */
export function writesWith<E extends Entities>(
  entities: E,
  make: (
    entities: Parameters<Parameters<typeof createWriteTransaction<E, unknown, Write[]>>[1]>[0],
  ) => Write[],
): Write[] {
  return make(entities as never);
}

/** A message with how its last attempt ended. */
export type Ended<R extends string = string> = { message: OutboundEmail; ending: Ending<R> };

export type KindHooks<R extends string = string> = {
  /** Why the message must not go out any more, if it must not; asked before each attempt. */
  unwanted?(message: OutboundEmail): Promise<Unwanted<R> | undefined>;
  /** Writes made in the transaction that ends the message's last attempt: each happens once. */
  settling?(message: OutboundEmail, ending: Ending<R>): Write[];
  /**
   * Writes that count messages ended together (an issue's figures), made once in the transaction
   * that ends them all: messages sent together write a count once, not once each.
   */
  counting?(ended: Ended<R>[]): Write[];
  /**
   * After the last attempt of these messages ended (with their `ending`), and again whenever a
   * message comes for one already ended (no `ending`): the worker that ended it may have died
   * before this ran. Idempotent.
   */
  settled?(messages: { message: Envelope; ending?: Ending<R> }[]): Promise<void>;
  /** Delivers it another way than SMTP (the mailing-list mirror); answers what the far end said. */
  send?(message: OutboundEmail): Promise<{ response: string; messageId?: string }>;
  /** Whether a failure of `send` will not get better by trying again. */
  permanent?(error: unknown): boolean;
};

const registered = new Map<string, KindHooks>();

/** Registers what the outbox must know about a kind; done once, by the module that owns it. */
export function registerKind<R extends string>(kind: string, hooks: KindHooks<R>): void {
  registered.set(kind, hooks as KindHooks);
}

export class UnregisteredKind extends Error {
  override name = 'UnregisteredKind';
  constructor(readonly kind: string) {
    super(
      `No module registered the outbox kind "${kind}": the process delivering it must import ` +
        'the module that makes it (the worker imports it through the job registry)',
    );
  }
}

/** The hooks of a kind; throws UnregisteredKind rather than deliver it without them. */
export function hooksOf(kind: string): KindHooks {
  const hooks = registered.get(kind);
  if (!hooks) throw new UnregisteredKind(kind);
  return hooks;
}

/** The kinds registered in this process. */
export function registeredKinds(): string[] {
  return [...registered.keys()].sort();
}
