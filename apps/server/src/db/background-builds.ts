import { describeDatabaseError } from './errors.ts';

/** How a cache built from the database rebuilds itself (db/page-anchors.ts, db/log-anchors.ts). */
export interface BackgroundBuildOptions {
  /** A failed build (the request that asked for it was already answered without it). */
  onBuildError?: (error: unknown) => void;
  /**
   * How long after a build that took `buildMs` no other build of the same key starts. By default
   * as long again, so that builds take at most half a core.
   */
  pauseAfterBuild?: (buildMs: number) => number;
}

/**
 * Builds run in the background, at most one per key at a time and none during the pause after
 * the last, their failures logged (`label`: what was not built) and never thrown.
 */
export class BackgroundBuilds<K> {
  private readonly onBuildError: (error: unknown) => void;
  private readonly pauseAfterBuild: (buildMs: number) => number;
  private readonly running = new Map<K, Promise<void>>();
  /** After a build, none of the same key before this time (`pauseAfterBuild`). */
  private readonly nextBuildAt = new Map<K, number>();

  constructor(label: string, options: BackgroundBuildOptions) {
    this.pauseAfterBuild = options.pauseAfterBuild ?? ((buildMs) => buildMs);
    this.onBuildError =
      options.onBuildError ??
      ((error) =>
        // A PostgreSQL error by its code only, as in the server's log (http/logging.ts).
        console.error(
          `${label} not built:`,
          JSON.stringify(describeDatabaseError(error) ?? String(error)),
        ));
  }

  /** Starts `build` for `key` unless one runs or the pause after the last has not ended. */
  start(key: K, build: () => Promise<void>): void {
    if (this.running.has(key) || Date.now() < (this.nextBuildAt.get(key) ?? 0)) return;
    const started = Date.now();
    const running = build()
      .catch(this.onBuildError)
      .finally(() => {
        this.running.delete(key);
        const finished = Date.now();
        this.nextBuildAt.set(key, finished + this.pauseAfterBuild(finished - started));
      });
    this.running.set(key, running);
  }

  /** Forgets the pause of `key` (its cache was dropped). */
  forget(key: K): void {
    this.nextBuildAt.delete(key);
  }

  /** Resolves when no build is running (tests, and the bench before it measures). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }
}
