import { Fragment } from 'react';

/** Unknown placeholders stay as written in the preview: marked so the admin sees where they are. */
function marked(text: string) {
  const parts = text.split(/(\{\{[^{}\n]*\}\}|\{\{)/);
  return parts.map((part, i) =>
    part.startsWith('{{') ? (
      <mark key={i} className="coalx-template-unknown">
        {part}
      </mark>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}

/** The contract text as the sample deal fills it: '# ' the title, '## ' headings, the rest indented paragraphs. */
export default function TemplatePreview({ paragraphs }: { paragraphs: string[] }) {
  if (paragraphs.length === 0) return <div className="coalx-template-preview-empty">模板正文为空</div>;
  return (
    <div className="coalx-template-preview-text">
      {paragraphs.map((p, i) => {
        if (p.startsWith('# ')) return <h3 key={i}>{marked(p.slice(2))}</h3>;
        if (p.startsWith('## ')) return <h4 key={i}>{marked(p.slice(3))}</h4>;
        return <p key={i}>{marked(p)}</p>;
      })}
    </div>
  );
}
