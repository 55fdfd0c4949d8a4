import type { ReactNode } from 'react';
import { describeError, t } from '../i18n.ts';
import * as styles from './feedback.css.ts';

/** A failed call, worded per SPEC §7; announced to screen readers as it appears. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p role="alert" className={styles.errorBox}>
      {describeError(error)}
    </p>
  );
}

export function Loading({ label }: { label?: string }) {
  return (
    <p role="status" className={styles.muted}>
      {label ?? t('app.loading')}
    </p>
  );
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
export function LiveStatus(props: { message: ReactNode; className?: string; testId?: string; as?: 'div' | 'p' | 'span' }) {
  const Message = props.as ?? 'div';
  return (
    <div role="status" className={styles.liveRegion}>
      {props.message ? (
        <Message className={props.className} data-testid={props.testId}>
          {props.message}
        </Message>
      ) : null}
    </div>
  );
}
