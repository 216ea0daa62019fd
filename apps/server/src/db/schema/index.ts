export * from './system';
export * from './enterprise';
export * from './auth';
export * from './files';
export * from './funds';
export * from './product';
export * from './trade';
export * from './onboarding';
