import { Injectable } from '@nestjs/common';
import { UnitOfWork } from './unit-of-work';

/**
 * The in-process events one bounded context raises and others react to, by name, with their
 * payloads. A new event is one line here; `publish` and `on` are typed by this map.
 */
export interface DomainEventMap {
  /** A game was published, unpublished, suspended or unsuspended (in-process caches drop it). */
  'game.status-changed': { gameId: string };
}

export type DomainEventName = keyof DomainEventMap;
type Handler<K extends DomainEventName> = (event: DomainEventMap[K]) => void;

/**
 * Typed in-process events, delivered after the transaction that published them commits (at once
 * when published outside a transaction) and never when it rolls back, so no listener acts on a
 * change that did not happen. Each handler runs on its own: one that throws is logged and does
 * not stop the others or change the committed answer.
 */
@Injectable()
export class DomainEvents {
  private readonly handlers = new Map<DomainEventName, Handler<never>[]>();

  constructor(private readonly uow: UnitOfWork) {}

  on<K extends DomainEventName>(name: K, handler: Handler<K>): void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(name, list);
  }

  publish<K extends DomainEventName>(name: K, event: DomainEventMap[K]): void {
    for (const handler of (this.handlers.get(name) ?? []) as Handler<K>[]) this.uow.afterCommit(() => handler(event));
  }
}
