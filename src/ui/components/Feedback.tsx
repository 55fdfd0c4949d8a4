import { X } from 'lucide-react';
import { useEffect, useState, type HTMLAttributes, type ReactNode } from 'react';
import { describeError, t } from '../i18n.ts';
import * as styles from './feedback.css.ts';

/**
 * A failed call, worded per SPEC §7; announced to screen readers as it appears. With `onDismiss`
 * (the failure of an action the user ran, which the page keeps until the next one), the user can
 * put it away.
 */
export function ErrorMessage({ error, onDismiss }: { error: unknown; onDismiss?: () => void }) {
  if (error === undefined || error === null) return null;
  if (!onDismiss) {
    return (
      <p role="alert" className={styles.errorBox}>
        {describeError(error)}
      </p>
    );
  }
  return (
    <div className={`${styles.errorBox} ${styles.dismissableError}`}>
      <p role="alert" className={styles.dismissableText}>
        {describeError(error)}
      </p>
      <button type="button" className={styles.dismissButton} aria-label={t('errors.dismiss')} title={t('errors.dismiss')} onClick={onDismiss}>
        <X aria-hidden="true" size={16} />
      </button>
    </div>
  );
}

/** A loading note, spoken: it exists as its region mounts, so it is deferred (DeferredLiveStatus); a quick load shows none. */
export function Loading({ label }: { label?: string }) {
  return <DeferredLiveStatus as="p" className={styles.muted} message={label ?? t('app.loading')} regionTestId="loading" />;
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className={styles.emptyState}>{children}</p>;
}

/**
 * A polite live region that is in the page before its message: screen readers announce a change
 * inside a region they already track, and often say nothing for one inserted with its text.
 * `className` styles the message (a snackbar, a notice), so an empty region shows nothing; `as`
 * keeps the element the message was before (a paragraph keeps its margins).
 */
export function LiveStatus(props: {
  message: ReactNode;
  className?: string;
  testId?: string;
  regionTestId?: string;
  as?: 'div' | 'p' | 'span';
  /** Handlers on the message itself (a notice that stays while hovered or focused: useTimedMessage). */
  messageProps?: HTMLAttributes<HTMLElement>;
}) {
  const Message = props.as ?? 'div';
  return (
    // role="status" is polite by definition; aria-live says it again for assistive technology that reads only that.
    <div role="status" aria-live="polite" className={styles.liveRegion} data-testid={props.regionTestId}>
      {props.message ? (
        <Message {...props.messageProps} className={props.className} data-testid={props.testId}>
          {props.message}
        </Message>
      ) : null}
    </div>
  );
}

/** How long a region that mounts with its message waits before showing it (DeferredLiveStatus). */
export const FIRST_MESSAGE_DELAY_MS = 100;

/**
 * A LiveStatus for a message that is there from the moment its region mounts (a loading note, a
 * note on a screen just opened): put in the page with its text, it would not be spoken. The region
 * goes in empty and the message follows a moment later, as a change screen readers announce.
 */
export function DeferredLiveStatus(props: Parameters<typeof LiveStatus>[0]) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), FIRST_MESSAGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return <LiveStatus {...props} message={ready ? props.message : null} />;
}
