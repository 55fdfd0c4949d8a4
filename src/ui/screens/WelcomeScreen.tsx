import { Plus } from 'lucide-react';
import { Redirect } from 'wouter';
import { useSnapshot } from 'valtio';
import * as buttons from '../components/buttons.css.ts';
import * as feedback from '../components/feedback.css.ts';
import { t } from '../i18n.ts';
import { dialogs } from '../store/dialogs.ts';
import { isAdmin, session } from '../store/session.ts';
import * as styles from './screens.css.ts';

/** Shown while the user sees no library; admins can add the first one from here. */
export function WelcomeScreen() {
  const { me, libraries } = useSnapshot(session);
  if (libraries.length > 0) return <Redirect to="/dashboard" replace />;
  return (
    <section>
      <h1 className={styles.pageTitle}>{t('welcome.title')}</h1>
      {/* Only an admin knows there is none at all; a user sees just what is shared with them. */}
      <p className={feedback.muted}>{t(isAdmin(me) ? 'welcome.no_library' : 'welcome.none_shared')}</p>
      {isAdmin(me) ? (
        <button
          type="button"
          className={buttons.primary}
          onClick={() => {
            dialogs.addLibrary = true;
          }}
        >
          <Plus aria-hidden="true" size={18} />
          {t('welcome.add_library')}
        </button>
      ) : (
        <p>{t('welcome.ask_admin_share')}</p>
      )}
    </section>
  );
}
