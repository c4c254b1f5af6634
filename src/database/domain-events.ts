import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ComposedDeclarations, DECLARATIONS } from '../registry/compose';
import type { EventMapOf } from '../registry/declarations';
import { UnitOfWork } from './unit-of-work';

/**
 * Events one bounded context raises and others react to, by name, with their payloads. There are
 * two kinds in process (docs/architecture.md, "Events"); the module that publishes an event
 * declares it with its kind and payload in its `<module>.declarations.ts` (`afterCommit<P>()`,
 * `inTransaction<P>()`), and the maps below are read off those declarations.
 */

/**
 * After-commit events: facts others may react to once they are durable (drop a cache, send a
 * mail). Delivered after the transaction that published them commits, never after a rollback.
 */
export type DomainEventMap = EventMapOf<'after-commit'>;

/**
 * In-transaction events: work another context must do in the same transaction, so that both
 * changes commit together or not at all. Handlers are awaited inside the publisher's transaction;
 * a handler that throws rolls the whole use case back.
 */
export type InTransactionEventMap = EventMapOf<'in-transaction'>;

export type DomainEventName = keyof DomainEventMap;
export type InTransactionEventName = keyof InTransactionEventMap;
type Handler<K extends DomainEventName> = (event: DomainEventMap[K]) => void;
type InTransactionHandler<K extends InTransactionEventName> = (event: InTransactionEventMap[K]) => Promise<void>;

/**
 * Typed in-process events of both kinds.
 *
 * After-commit (`on`/`publish`): delivered after the transaction that published them commits (at
 * once when published outside a transaction) and never when it rolls back, so no listener acts on a
 * change that did not happen. Each handler runs on its own: one that throws is logged and does not
 * stop the others or change the committed answer.
 *
 * In-transaction (`onInTransaction`/`publishInTransaction`): published only inside `uow.run()`;
 * every handler is awaited, in registration order, on the publisher's transaction. An event nobody
 * handles is a wiring mistake (the module that must react is not loaded) and throws, so the
 * transaction rolls back instead of committing half a change.
 */
@Injectable()
export class DomainEvents implements OnApplicationBootstrap {
  private readonly handlers = new Map<DomainEventName, Handler<never>[]>();
  private readonly inTransactionHandlers = new Map<InTransactionEventName, InTransactionHandler<never>[]>();

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(DECLARATIONS) private readonly declarations: ComposedDeclarations,
  ) {}

  /** Every declared in-transaction event has a handler once the modules are up: else the app does not start. */
  onApplicationBootstrap(): void {
    for (const [name, kind] of this.declarations.events) {
      if (kind === 'in-transaction' && !this.inTransactionHandlers.has(name as InTransactionEventName)) {
        throw new Error(`No handler for the in-transaction event '${name}' (declared by ${this.declarations.owners.get(`events:${name}`)}): the module that reacts to it is not loaded.`);
      }
    }
  }

  on<K extends DomainEventName>(name: K, handler: Handler<K>): void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(name, list);
  }

  publish<K extends DomainEventName>(name: K, event: DomainEventMap[K]): void {
    for (const handler of (this.handlers.get(name) ?? []) as Handler<K>[]) this.uow.afterCommit(() => handler(event));
  }

  onInTransaction<K extends InTransactionEventName>(name: K, handler: InTransactionHandler<K>): void {
    const list = this.inTransactionHandlers.get(name) ?? [];
    list.push(handler as InTransactionHandler<never>);
    this.inTransactionHandlers.set(name, list);
  }

  async publishInTransaction<K extends InTransactionEventName>(name: K, event: InTransactionEventMap[K]): Promise<void> {
    this.uow.requireTransaction();
    const handlers = (this.inTransactionHandlers.get(name) ?? []) as InTransactionHandler<K>[];
    if (handlers.length === 0) throw new Error(`No handler for the in-transaction event '${name}': the module that reacts to it is not loaded.`);
    for (const handler of handlers) await handler(event);
  }
}
