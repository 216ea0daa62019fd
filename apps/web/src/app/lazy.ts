import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A page chunk that has not arrived after 120 s fails with a ChunkLoadError (spec §8/§9). */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(message = '页面资源加载超时，请刷新重试') {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

export function withChunkTimeout<T>(loading: Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs);
  });
  return Promise.race([loading, timeout]).finally(() => clearTimeout(timer));
}

/** A lazy page whose chunk can be asked for before React renders it (see preloadRoute in router.tsx). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LazyPage<T extends ComponentType<any>> = LazyExoticComponent<T> & { preload: () => Promise<unknown> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<T extends ComponentType<any>>(loader: () => Promise<{ default: T }>): LazyPage<T> {
  let loading: Promise<{ default: T }> | null = null;
  const load = () =>
    (loading ??= withChunkTimeout(loader()).catch((error: unknown) => {
      loading = null; // a later render may try again
      if (error instanceof ChunkLoadError) throw error;
      const failure = new ChunkLoadError('页面资源加载失败，请刷新重试');
      (failure as Error & { cause?: unknown }).cause = error;
      throw failure;
    }));
  return Object.assign(lazy(load), { preload: () => load().catch(() => undefined) });
}
