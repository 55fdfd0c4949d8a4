import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { LiveEvent } from '../../api/events.ts';
import { onLiveEvent } from '../events/liveStore.ts';
import * as styles from './cards.css.ts';

interface PosterProps {
  src: string;
  /**
   * A live event that announces a new poster for this image's owner. A card drawn during a library's
   * first scan asks for a poster the server has not drawn yet (404); when the event comes the image
   * is asked for again instead of the frame staying empty until the page is reloaded.
   */
  retryWhen?: (event: LiveEvent) => boolean;
  children?: ReactNode;
}

/** Lazy cover image in a frame whose aspect ratio is reserved up front; a failed image leaves the frame. */
export function Poster({ src, retryWhen, children }: PosterProps) {
  // The failure belongs to one address: a new `?v=` stamp tries again.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const [retries, setRetries] = useState(0);
  const failed = failedSrc === src;
  // Cards pass a fresh closure each render: listen through a ref rather than resubscribe each time.
  const retryRef = useRef(retryWhen);
  retryRef.current = retryWhen;
  useEffect(() => {
    if (!failed) return undefined;
    return onLiveEvent((event) => {
      if (!retryRef.current?.(event)) return;
      setRetries((count) => count + 1);
      setFailedSrc(null);
    });
  }, [failed]);
  // Each retry is a new address, so no cached failure answers it.
  const shown = retries === 0 ? src : `${src}${src.includes('?') ? '&' : '?'}retry=${retries}`;
  return (
    <div className={styles.poster}>
      {!failed && (
        <img
          className={styles.posterImage}
          src={shown}
          alt=""
          loading="lazy"
          decoding="async"
          onError={() => setFailedSrc(src)}
        />
      )}
      {children}
    </div>
  );
}
