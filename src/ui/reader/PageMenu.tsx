import type { PosterOwner } from '../../api/posters.ts';
import { t } from '../i18n.ts';
import * as styles from './reader.css.ts';
import { pageDownloadUrl } from './posterFromPage.ts';
import { MenuAction } from './ReaderMoreMenu.tsx';

export interface PosterTarget {
  owner: PosterOwner;
  id: string;
  label: string;
}

interface PageMenuItemsProps {
  bookId: string;
  page: number;
  posterTargets: PosterTarget[];
  onSetPoster: (target: PosterTarget) => void;
  /** Hides the menu these items sit in. */
  close: () => void;
}

/** The page's entries in the top bar's "more" menu (REFERENCE §5.8): download the page, make it a poster. */
export function PageMenuItems({ bookId, page, posterTargets, onSetPoster, close }: PageMenuItemsProps) {
  return (
    <>
      <a className={styles.menuItem} href={pageDownloadUrl(bookId, page)} download onClick={close}>
        {t('reader.download_page')}
      </a>
      {posterTargets.map((target) => (
        <MenuAction
          key={target.owner}
          onClick={() => {
            close();
            onSetPoster(target);
          }}
        >
          {target.label}
        </MenuAction>
      ))}
    </>
  );
}
