import { defineStateMachine } from '../state-machine';

/** An announcement or news item: visitors see it only while published (and inside its effective period). */
export const ContentStates = defineStateMachine({
  label: '公告状态',
  states: { draft: '草稿', published: '已发布', unpublished: '已下线' },
  moves: {
    publish: { from: ['draft', 'unpublished'], to: 'published', event: 'content.published' },
    unpublish: { from: ['published'], to: 'unpublished', event: 'content.unpublished' },
  },
});
