import { ZoomIn, ZoomOut } from 'lucide-react';
import { useState } from 'react';
import { formatPercent } from '../../format.ts';
import { t } from '../../i18n.ts';
import * as styles from '../reader.css.ts';
import { ReaderDialog } from '../ReaderDialog.tsx';
import * as epubStyles from './epubReader.css.ts';

const ZOOMS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;

/** An image of the book on its own, at its own size, zoomable (opened by a double click on it). */
export function ImageZoomDialog({ src, onClose }: { src: string; onClose: () => void }) {
  const [index, setIndex] = useState(2);
  const zoom = ZOOMS[index]!;
  return (
    <ReaderDialog title={t('reader.epub.image')} onClose={onClose}>
      <div className={epubStyles.zoomControls}>
        <button type="button" className={styles.iconButton} aria-label={t('reader.epub.zoom_out')} disabled={index === 0} onClick={() => setIndex(index - 1)}>
          <ZoomOut aria-hidden size={20} />
        </button>
        <span aria-live="polite">{formatPercent(Math.round(zoom * 100))}</span>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={t('reader.epub.zoom_in')}
          disabled={index === ZOOMS.length - 1}
          onClick={() => setIndex(index + 1)}
        >
          <ZoomIn aria-hidden size={20} />
        </button>
      </div>
      <div className={epubStyles.zoomViewport}>
        <img src={src} alt="" className={epubStyles.zoomImage} style={{ zoom }} data-testid="epub-zoomed-image" />
      </div>
    </ReaderDialog>
  );
}
