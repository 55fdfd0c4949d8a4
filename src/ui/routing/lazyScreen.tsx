import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { Loading } from '../components/Feedback.tsx';
import { t } from '../i18n.ts';

function ChunkFailed() {
  return (
    <div role="alert" className={feedback.errorBox}>
      <p>{t('app.chunk_load_failed')}</p>
      <button type="button" className={buttons.secondary} onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}

/** Shown when a screen's code chunk cannot be fetched (SPEC §8 ChunkLoadError), with a way out. */
class ChunkErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ChunkFailed /> : this.props.children;
  }
}

export type LazyScreen<P extends object> = ComponentType<P> & {
  /** Starts loading the screen's code now (e.g. as soon as the route is known); safe to call often. */
  preload(): Promise<ComponentType<P>>;
};

/**
 * A screen whose code loads on first visit, so the first paint of the common screens does not
 * wait for the reader or the administration screens. Deliberately not React.lazy + Suspense: React
 * holds back the content that replaces a Suspense fallback for about 300 ms after the fallback
 * appeared (its reveal throttle), which put a third of a second of idle time in front of every
 * cold-opened book. Here the chunk's promise is awaited in an effect and the screen renders the
 * moment it arrives; once loaded, it renders directly, with no loading step at all.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = (): Promise<ComponentType<P>> => {
    loading ??= load().then(
      (screen) => (loaded = screen),
      (error: unknown) => {
        loading = null; // a later visit tries again
        throw error;
      },
    );
    return loading;
  };

  function LazyScreen(props: P) {
    const [, arrived] = useState(0);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      preload().then(
        () => {
          if (live) arrived((count) => count + 1);
        },
        (error: unknown) => {
          console.error('A screen of the app could not be loaded', error);
          if (live) setFailed(true);
        },
      );
      return () => {
        live = false;
      };
    }, []);
    if (failed) return <ChunkFailed />;
    const Screen = loaded;
    if (!Screen) return <Loading />;
    return (
      <ChunkErrorBoundary>
        <Screen {...props} />
      </ChunkErrorBoundary>
    );
  }
  return Object.assign(LazyScreen, { preload });
}
