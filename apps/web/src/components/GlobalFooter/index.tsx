import { COPYRIGHT_LINE, ICP_NUMBER } from '@coalx/shared';

export default function GlobalFooter() {
  return (
    <footer className="coalx-footer">
      <div className="coalx-footer-inner">
        <div className="coalx-footer-line">{COPYRIGHT_LINE}</div>
        <div className="coalx-footer-line">
          <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer">
            {ICP_NUMBER}
          </a>
        </div>
      </div>
    </footer>
  );
}
