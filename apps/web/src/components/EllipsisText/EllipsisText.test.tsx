import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ELLIPSIS } from '@coalx/shared';
import EllipsisText from '.';

afterEach(cleanup);

describe('<EllipsisText>', () => {
  it('shows a short text whole, without a tooltip', () => {
    render(<EllipsisText text="动力煤 5500" max={ELLIPSIS.name} />);
    const el = screen.getByText('动力煤 5500');
    expect(el.getAttribute('title')).toBeNull();
  });

  it('cuts a name at 14 characters and keeps the full name on hover', async () => {
    const name = '山西晋北煤业集团有限公司动力煤5500大卡';
    render(<EllipsisText text={name} max={ELLIPSIS.name} />);
    const el = screen.getByText(`${Array.from(name).slice(0, 14).join('')}...`);
    expect(el.getAttribute('title')).toBe(name);
    fireEvent.mouseEnter(el);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', name);
  });

  it('cuts announcement titles at 40 and other text at 16 by default', () => {
    const title = '周'.repeat(41);
    render(<EllipsisText text={title} max={ELLIPSIS.announcementTitle} />);
    expect(screen.getByText(`${'周'.repeat(40)}...`)).toBeTruthy();
    render(<EllipsisText text={'字'.repeat(17)} />);
    expect(screen.getByText(`${'字'.repeat(16)}...`)).toBeTruthy();
  });

  it('shows nothing for an empty value', () => {
    const { container } = render(<EllipsisText text={null} />);
    expect(container.textContent).toBe('');
  });
});
