import { describe, expect, it } from 'vitest';
import { decideNavigation, isPublicPath, loginPathFor, pathAfterLogin, safeRedirect, type GuardInput } from './guard';
import { PROTECTED_PATHS, PUBLIC_PATHS } from './routes';

const base: GuardInput = {
  pathname: '/index',
  search: '',
  signedIn: false,
  routesLoaded: false,
  firstLogin: false,
  isPublic: true,
};
const decide = (input: Partial<GuardInput>) => decideNavigation({ ...base, ...input });

describe('guard decisions (spec §4 Session)', () => {
  it('a visitor opens public routes', () => {
    expect(decide({ pathname: '/index' })).toEqual({ type: 'allow' });
    expect(decide({ pathname: '/user/login' })).toEqual({ type: 'allow' });
  });

  it('a visitor going to a non-public route is sent to login with the wanted path and query', () => {
    expect(decide({ pathname: '/deal/bidding', search: '?tradeId=JJ1', isPublic: false })).toEqual({
      type: 'redirect',
      to: '/user/login?redirect=%2Fdeal%2Fbidding%3FtradeId%3DJJ1',
    });
  });

  it('signed in, the login page goes to /index', () => {
    expect(decide({ signedIn: true, pathname: '/user/login' })).toEqual({ type: 'redirect', to: '/index' });
    expect(decide({ signedIn: true, routesLoaded: true, pathname: '/user/login' })).toEqual({ type: 'redirect', to: '/index' });
  });

  it('signed in without loaded routes, user info and menu are loaded first', () => {
    expect(decide({ signedIn: true, pathname: '/companyInfo', isPublic: false })).toEqual({ type: 'load' });
    expect(decide({ signedIn: true, pathname: '/index' })).toEqual({ type: 'load' });
  });

  it('a first login is forced to change the password from every page', () => {
    for (const pathname of ['/index', '/companyInfo', '/404', '/user/register']) {
      expect(decide({ signedIn: true, routesLoaded: true, firstLogin: true, pathname })).toEqual({
        type: 'redirect',
        to: '/user/changePassword',
      });
    }
    expect(decide({ signedIn: true, routesLoaded: true, firstLogin: true, pathname: '/user/changePassword' })).toEqual({
      type: 'allow',
    });
  });

  it('signed in with routes loaded, every page opens', () => {
    expect(decide({ signedIn: true, routesLoaded: true, pathname: '/companyInfo', isPublic: false })).toEqual({ type: 'allow' });
  });
});

describe('public paths', () => {
  const pub = (p: string) => isPublicPath(p, PUBLIC_PATHS, PROTECTED_PATHS);
  it('the public routes of spec §2', () => {
    for (const p of ['/user/login', '/user/register', '/user/register-result', '/index', '/moreAnnouncements', '/pdfDetails', '/ukey/index', '/sign/index', '/', '/user']) {
      expect(pub(p)).toBe(true);
    }
  });
  it('main-layout routes, change password and workspace pages need sign-in', () => {
    for (const p of ['/recommend/recommendList', '/deal/bidding', '/listingResult', '/user/changePassword', '/companyInfo', '/workspace', '/listingTrade/start']) {
      expect(pub(p)).toBe(false);
    }
  });
  it('the bid log verification is open to anyone (its data is public)', () => {
    expect(pub('/bidLog/verify')).toBe(true);
  });
  it('an unknown path is no route at all: the router shows 404 to anyone', () => {
    expect(pub('/no/such/page')).toBe(true);
  });
});

describe('redirects', () => {
  it('login path keeps the wanted path', () => {
    expect(loginPathFor('/companyInfo')).toBe('/user/login?redirect=%2FcompanyInfo');
    expect(loginPathFor('/')).toBe('/user/login');
  });
  it('after login: redirect, or /index, or change password for a first login', () => {
    expect(pathAfterLogin('?redirect=%2FcompanyInfo', false)).toBe('/companyInfo');
    expect(pathAfterLogin('', false)).toBe('/index');
    expect(pathAfterLogin('?redirect=%2FcompanyInfo', true)).toBe('/user/changePassword');
  });
  it('only same-site redirects are followed', () => {
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('/user/login?redirect=/x')).toBeNull();
    expect(safeRedirect('/deal/bidding?tradeId=1')).toBe('/deal/bidding?tradeId=1');
  });
});
