import { Link } from 'react-router';

/** The CoalX mark: a coal seam under the sun, in the brand's navy and amber. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#0b2545" />
      <path d="M12 46 L25 22 L34 35 L40 27 L52 46 Z" fill="#f5a623" />
      <path d="M12 46 L52 46 L52 50 L12 50 Z" fill="#3b82f6" />
      <circle cx="45" cy="17" r="5" fill="#ffffff" />
    </svg>
  );
}

export default function Logo({ dark = false, to = '/index' }: { dark?: boolean; to?: string }) {
  return (
    <Link to={to} className={dark ? 'coalx-logo coalx-logo-dark' : 'coalx-logo'}>
      <LogoMark />
      <span className="coalx-logo-text">
        <span className="coalx-logo-name">CoalX</span>
        <span className="coalx-logo-sub">煤炭现货交易平台</span>
      </span>
    </Link>
  );
}
