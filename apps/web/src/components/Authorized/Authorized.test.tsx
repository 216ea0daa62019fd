import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userWith } from '@/test/fixtures';
import { PageMetaContext } from '@/app/page-context';
import { session } from '@/app/session';
import Authorized from '.';

beforeEach(() => {
  localStorage.clear();
  session.reset();
  session.signIn('t', userWith({ 'listingTrade-query': ['query', 'export'] }), null);
});
afterEach(cleanup);

function renderOnPage(action: string, permission = 'listingTrade-query') {
  return render(
    <PageMetaContext.Provider value={{ title: '我的挂牌', permission }}>
      <Authorized action={action}>
        <button>操作</button>
      </Authorized>
    </PageMetaContext.Provider>,
  );
}

describe('<Authorized>', () => {
  it('keeps the element when the role holds the action', () => {
    renderOnPage('listingTrade-query.export');
    expect(screen.queryByText('操作')).not.toBeNull();
  });

  it('removes the element when the permission exists but lacks the action', () => {
    renderOnPage('listingTrade-query.delete');
    expect(screen.queryByText('操作')).toBeNull();
  });

  it('uses the current page permission for a bare action', () => {
    renderOnPage('delete');
    expect(screen.queryByText('操作')).toBeNull();
    cleanup();
    renderOnPage('export');
    expect(screen.queryByText('操作')).not.toBeNull();
  });

  it('keeps the element when the role does not have the permission at all', () => {
    renderOnPage('system-user.delete');
    expect(screen.queryByText('操作')).not.toBeNull();
  });
});
