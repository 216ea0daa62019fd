// one schema file per domain, named like its module (the architecture test holds modules to their own tables)
export * from './system';
export * from './enterprise';
export * from './auth';
export * from './files';
export * from './funds';
export * from './product';
export * from './listing';
export * from './deal';
export * from './area';
export * from './sms';
export * from './auction';
export * from './content';
export * from './market-index';
export * from './home';
export * from './sign';
export * from './ukey';
export * from './contract';
