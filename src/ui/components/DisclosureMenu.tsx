import { ChevronDown } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import * as buttons from './buttons.css.ts';
import * as styles from './menu.css.ts';

export interface MenuAction {
  key: string;
  label: string;
  icon?: ReactNode;
  danger?: boolean;
  run: () => void;
}

/**
 * A button that shows a short list of action buttons below it (disclosure pattern): Tab moves
 * through the actions, Escape or a click elsewhere closes the list and focus returns to the button.
 */
export function DisclosureMenu({ label, actions }: { label: string; actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLUListElement>(null);
  // The list hangs from the button's end edge; a button near the start of a narrow screen would
  // push it past that edge, so it then hangs from the start edge instead (measured before paint).
  const [fromStart, setFromStart] = useState(false);

  useLayoutEffect(() => {
    if (!open) {
      setFromStart(false);
      return;
    }
    const panel = panelRef.current;
    if (!panel || fromStart) return;
    const box = panel.getBoundingClientRect();
    if (box.left < 0 || box.right > document.documentElement.clientWidth) setFromStart(true);
  }, [open, fromStart]);

  // A button near the bottom of the screen (Book actions on a phone) would open its list below the
  // fold, showing one action of six and no sign of the rest: the page scrolls just enough to show it.
  useEffect(() => {
    if (open) panelRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [open, fromStart]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={rootRef} className={styles.root}>
      <button
        ref={buttonRef}
        type="button"
        className={buttons.secondary}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        {label}
        <ChevronDown aria-hidden="true" size={16} />
      </button>
      {open && (
        <ul ref={panelRef} id={panelId} className={`${styles.panel} ${fromStart ? styles.panelFromStart : ''}`}>
          {actions.map((action) => (
            <li key={action.key}>
              <button
                type="button"
                className={`${styles.item} ${action.danger ? styles.dangerItem : ''}`}
                onClick={() => {
                  setOpen(false);
                  // The clicked item disappears with the list; put focus back on the menu button
                  // first, so a dialog the action opens hands focus back to it when it closes
                  // (otherwise keyboard users are left on <body>).
                  buttonRef.current?.focus();
                  action.run();
                }}
              >
                {action.icon}
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
