/**
 * The app's change notifier: a write that changes what the router caches says so here, after its
 * transaction, and the router's configuration cache (and anyone else) forgets that record. One per
 * app (deps.services.changes), so two apps in one process never hear each other.
 *
 * Topics, each with the id it carries:
 * - `project`: a project's settings (its quotas, questions and exclusions too) changed;
 * - `supplierMap`: a supplier map (a supplier on a project) changed;
 * - `supplier`: a supplier changed (active, deleted, type, approved hook): its maps are reread.
 */
export type ChangeTopics = { project: string; supplierMap: string; supplier: string };
export type ChangeTopic = keyof ChangeTopics;
type Listener<T extends ChangeTopic> = (id: ChangeTopics[T]) => void;

export class ChangeNotifier {
  readonly #listeners: { [T in ChangeTopic]: Set<Listener<T>> } = {
    project: new Set(),
    supplierMap: new Set(),
    supplier: new Set(),
  };

  /** Listens to a topic; returns the function that stops listening. */
  on<T extends ChangeTopic>(topic: T, fn: Listener<T>): () => void {
    const set = this.#listeners[topic] as Set<Listener<T>>;
    set.add(fn);
    return () => set.delete(fn);
  }

  /** Tells every listener of the topic, once per id. */
  emit<T extends ChangeTopic>(topic: T, ...ids: ChangeTopics[T][]): void {
    const set = this.#listeners[topic] as Set<Listener<T>>;
    if (!set.size) return;
    for (const id of ids) for (const fn of set) fn(id);
  }

  /** A project's settings changed (each id): the router rereads them. */
  project(...ids: string[]) {
    this.emit("project", ...ids);
  }

  /** A supplier map changed: the router rereads it. */
  supplierMap(id: string) {
    this.emit("supplierMap", id);
  }

  /** A supplier changed: the router rereads its maps. */
  supplier(id: string) {
    this.emit("supplier", id);
  }

  /** How many listen, over all topics (tests: a closed app leaves none). */
  get listeners(): number {
    return Object.values(this.#listeners).reduce((n, s) => n + s.size, 0);
  }
}
