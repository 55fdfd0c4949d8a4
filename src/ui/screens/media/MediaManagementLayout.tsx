import type { ReactNode } from 'react';
import { TabLinks } from '../../components/TabLinks.tsx';
import { t } from '../../i18n.ts';
import * as styles from '../screens.css.ts';

const TABS = [
  { href: '/media-management/analysis', key: 'analysis' },
  { href: '/media-management/duplicate-files', key: 'duplicate_files' },
  { href: '/media-management/duplicate-pages/known', key: 'duplicate_pages' },
] as const;

/** Title and tabs shared by the media management screens. */
export function MediaManagementLayout({ current, children }: { current: (typeof TABS)[number]['key']; children: ReactNode }) {
  return (
    <>
      <div className={styles.pageHeader}>
        <h1 className={styles.pageTitle}>{t('media.title')}</h1>
      </div>
      <TabLinks label={t('media.tabs_label')} tabs={TABS.map((tab) => ({ ...tab, label: t(`media.tabs.${tab.key}`) }))} current={current} />
      {children}
    </>
  );
}
