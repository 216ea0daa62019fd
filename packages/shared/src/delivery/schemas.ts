// request and answer shapes: filled by the work
export {};
