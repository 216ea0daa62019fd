export * from './states';
export * from './signing';
export * from './schemas';
