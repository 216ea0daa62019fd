import type { ArgsProps } from 'antd/es/notification';

/**
 * Error notices of the request layer and the guard. antd's notification (with its Chinese holder) is loaded when
 * the first notice is shown: no visitor needs it to see the login or home page, and it weighs ~14 kB gzip there.
 * An object, so tests can spy on it.
 */
export const notice = {
  error(args: ArgsProps): void {
    void import('antd/es/notification').then(({ default: notification }) => notification.error(args));
  },
};
