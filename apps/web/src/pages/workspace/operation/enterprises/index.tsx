// placeholder of the 企业名录 page while issue 29 is built; replaced by the page itself
export default function Page() {
  return <div>企业名录</div>;
}
