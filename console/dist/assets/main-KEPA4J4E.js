var Ee,T,ct,pn,oe,st,ut,pt,Me,ye,pe,dt,qe,Le,We,dn,we={},ke=[],mn=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,xe=Array.isArray;function ee(e,t){for(var n in t)e[n]=t[n];return e}function Oe(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function Re(e,t,n){var o,a,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?a=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?Ee.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return ve(e,l,o,a,null)}function ve(e,t,n,o,a){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:a??++ct,__i:-1,__u:0};return a==null&&T.vnode!=null&&T.vnode(r),r}function Te(e){return e.children}function de(e,t){this.props=e,this.context=t}function ae(e,t){if(t==null)return e.__?ae(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?ae(e):null}function fn(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],a=[],r=ee({},t);r.__v=t.__v+1,T.vnode&&T.vnode(r),He(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??ae(t),!!(32&t.__u),a),r.__v=t.__v,r.__.__k[r.__i]=r,$t(o,r,a),t.__e=t.__=null,r.__e!=n&&mt(r)}}function mt(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),mt(e)}function it(e){(!e.__d&&(e.__d=!0)&&oe.push(e)&&!Se.__r++||st!=T.debounceRendering)&&((st=T.debounceRendering)||ut)(Se)}function Se(){try{for(var e,t=1;oe.length;)oe.length>t&&oe.sort(pt),e=oe.shift(),t=oe.length,fn(e)}finally{oe.length=Se.__r=0}}function ft(e,t,n,o,a,r,l,s,u,c,p){var f,i,m,h,$,v,k=o&&o.__k||ke,y=t.length;for(u=_n(n,t,k,u,y),f=0;f<y;f++)(m=n.__k[f])!=null&&(i=m.__i!=-1&&k[m.__i]||we,m.__i=f,v=He(e,m,i,a,r,l,s,u,c,p),h=m.__e,m.ref&&i.ref!=m.ref&&(i.ref&&je(i.ref,null,m),p.push(m.ref,m.__c||h,m)),$==null&&h!=null&&($=h),4&m.__u?(u=_t(m,u,e),i.__e&&(i.__e=null)):typeof m.type=="function"&&v!==void 0?u=v:h&&(u=h.nextSibling),m.__u&=-7);return n.__e=$,u}function _n(e,t,n,o,a){var r,l,s,u,c,p=n.length,f=p,i=0;for(e.__k=new Array(a),r=0;r<a;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=ve(null,l,null,null,null):xe(l)?l=e.__k[r]=ve(Te,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=ve(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+i,l.__=e,l.__b=e.__b+1,s=null,(c=l.__i=hn(l,n,u,f))!=-1&&(f--,(s=n[c])&&(s.__u|=2)),s==null||s.__v==null?(c==-1&&(a>p?i--:a<p&&i++),typeof l.type!="function"&&(l.__u|=4)):c!=u&&(c==u-1?i--:c==u+1?i++:(c>u?i--:i++,l.__u|=4))):e.__k[r]=null;if(f)for(r=0;r<p;r++)(s=n[r])!=null&&(2&s.__u)==0&&(s.__e==o&&(o=ae(s)),gt(s,s));return o}function _t(e,t,n){var o,a;if(typeof e.type=="function"){for(o=e.__k,a=0;o&&a<o.length;a++)o[a]&&(o[a].__=e,t=_t(o[a],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=ae(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function hn(e,t,n,o){var a,r,l,s=e.key,u=e.type,c=t[n],p=c!=null&&(2&c.__u)==0;if(c===null&&s==null||p&&s==c.key&&u==c.type)return n;if(o>(p?1:0)){for(a=n-1,r=n+1;a>=0||r<t.length;)if((c=t[l=a>=0?a--:r++])!=null&&(2&c.__u)==0&&s==c.key&&u==c.type)return l}return-1}function at(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||mn.test(t)?n:n+"px"}function ge(e,t,n,o,a){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||at(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||at(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(dt,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[pe]=o[pe]:(n[pe]=qe,e.addEventListener(t,r?We:Le,r)):e.removeEventListener(t,r?We:Le,r);else{if(a=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function lt(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[ye]==null)t[ye]=qe++;else if(t[ye]<n[pe])return;return n(T.event?T.event(t):t)}}}function He(e,t,n,o,a,r,l,s,u,c){var p,f,i,m,h,$,v,k,y,D,M,S,F,z,g,R,q=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[s=t.__e=n.__e]),(p=T.__b)&&p(t);e:if(typeof q=="function"){f=l.length;try{if(y=t.props,D=q.prototype&&q.prototype.render,M=(p=q.contextType)&&o[p.__c],S=p?M?M.props.value:p.__:o,n.__c?k=(i=t.__c=n.__c).__=i.__E:(D?t.__c=i=new q(y,S):(t.__c=i=new de(y,S),i.constructor=q,i.render=bn),M&&M.sub(i),i.state||(i.state={}),i.__n=o,m=i.__d=!0,i.__h=[],i._sb=[]),D&&i.__s==null&&(i.__s=i.state),D&&q.getDerivedStateFromProps!=null&&(i.__s==i.state&&(i.__s=ee({},i.__s)),ee(i.__s,q.getDerivedStateFromProps(y,i.__s))),h=i.props,$=i.state,i.__v=t,m)D&&q.getDerivedStateFromProps==null&&i.componentWillMount!=null&&i.componentWillMount(),D&&i.componentDidMount!=null&&i.__h.push(i.componentDidMount);else{if(D&&q.getDerivedStateFromProps==null&&y!==h&&i.componentWillReceiveProps!=null&&i.componentWillReceiveProps(y,S),t.__v==n.__v||!i.__e&&i.shouldComponentUpdate!=null&&i.shouldComponentUpdate(y,i.__s,S)===!1){t.__v!=n.__v&&(i.props=y,i.state=i.__s,i.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(K){K&&(K.__=t)}),ke.push.apply(i.__h,i._sb),i._sb=[],i.__h.length&&l.push(i),s=ae(n);break e}i.componentWillUpdate!=null&&i.componentWillUpdate(y,i.__s,S),D&&i.componentDidUpdate!=null&&i.__h.push(function(){i.componentDidUpdate(h,$,v)})}if(i.context=S,i.props=y,i.__P=e,i.__e=!1,F=T.__r,z=0,D)i.state=i.__s,i.__d=!1,F&&F(t),p=i.render(i.props,i.state,i.context),ke.push.apply(i.__h,i._sb),i._sb=[];else do i.__d=!1,F&&F(t),p=i.render(i.props,i.state,i.context),i.state=i.__s;while(i.__d&&++z<25);i.state=i.__s,i.getChildContext!=null&&(o=ee(ee({},o),i.getChildContext())),D&&!m&&i.getSnapshotBeforeUpdate!=null&&(v=i.getSnapshotBeforeUpdate(h,$)),g=p!=null&&p.type===Te&&p.key==null?bt(p.props.children):p,s=ft(e,xe(g)?g:[g],t,n,o,a,r,l,s,u,c),i.base=t.__e,t.__u&=-161,i.__h.length&&l.push(i),k&&(i.__E=i.__=null)}catch(K){if(l.length=f,t.__v=null,u||r!=null){if(K.then){for(t.__u|=u?160:128;s&&s.nodeType==8&&s.nextSibling;)s=s.nextSibling;r!=null&&(r[r.indexOf(s)]=null),t.__e=s}else if(r!=null)for(R=r.length;R--;)Oe(r[R])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),K.then||ht(t),T.__e(K,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):s=t.__e=$n(n.__e,t,n,o,a,r,l,u,c);return(p=T.diffed)&&p(t),128&t.__u?void 0:s}function ht(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(ht))}function $t(e,t,n){for(var o=0;o<n.length;o++)je(n[o],n[++o],n[++o]);T.__c&&T.__c(t,e),e.some(function(a){try{e=a.__h,a.__h=[],e.some(function(r){r.call(a)})}catch(r){T.__e(r,a.__v)}})}function bt(e){return typeof e!="object"||e==null||e.__b>0?e:xe(e)?e.map(bt):e.constructor!==void 0?null:ee({},e)}function $n(e,t,n,o,a,r,l,s,u){var c,p,f,i,m,h,$,v=n.props||we,k=t.props,y=t.type;if(y=="svg"?a="http://www.w3.org/2000/svg":y=="math"?a="http://www.w3.org/1998/Math/MathML":a||(a="http://www.w3.org/1999/xhtml"),r!=null){for(c=0;c<r.length;c++)if((m=r[c])&&"setAttribute"in m==!!y&&(y?m.localName==y:m.nodeType==3)){e=m,r[c]=null;break}}if(e==null){if(y==null)return document.createTextNode(k);e=document.createElementNS(a,y,k.is&&k),s&&(T.__m&&T.__m(t,r),s=!1),r=null}if(y==null)v===k||s&&e.data==k||(e.data=k);else{if(r=y=="textarea"&&k.defaultValue!=null?null:r&&Ee.call(e.childNodes),!s&&r!=null)for(v={},c=0;c<e.attributes.length;c++)v[(m=e.attributes[c]).name]=m.value;for(c in v)m=v[c],c=="dangerouslySetInnerHTML"?f=m:c=="children"||c in k||c=="value"&&"defaultValue"in k||c=="checked"&&"defaultChecked"in k||ge(e,c,null,m,a);for(c in k)m=k[c],c=="children"?i=m:c=="dangerouslySetInnerHTML"?p=m:c=="value"?h=m:c=="checked"?$=m:s&&typeof m!="function"||v[c]===m||ge(e,c,m,v[c],a);if(p)s||f&&(p.__html==f.__html||p.__html==e.innerHTML)||(e.innerHTML=p.__html),t.__k=[];else if(f&&(e.innerHTML=""),ft(t.type=="template"?e.content:e,xe(i)?i:[i],t,n,o,y=="foreignObject"?"http://www.w3.org/1999/xhtml":a,r,l,r?r[0]:n.__k&&ae(n,0),s,u),r!=null)for(c=r.length;c--;)Oe(r[c]);s&&y!="textarea"||(c="value",y=="progress"&&h==null?e.removeAttribute("value"):h!=null&&(h!==e[c]||y=="progress"&&!h||y=="option"&&h!=v[c])&&ge(e,c,h,v[c],a),c="checked",$!=null&&$!=e[c]&&ge(e,c,$,v[c],a))}return e}function je(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(a){T.__e(a,n)}}function gt(e,t,n){var o,a;if(T.unmount&&T.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||je(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){T.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(a=0;a<o.length;a++)o[a]&&gt(o[a],t,n||typeof e.type!="function");n||Oe(e.__e),e.__c=e.__=e.__e=void 0}function bn(e,t,n){return this.constructor(e,n)}function Ge(e,t,n){var o,a,r,l;t==document&&(t=document.documentElement),T.__&&T.__(e,t),a=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],He(t,e=(!o&&n||t).__k=Re(Te,null,[e]),a||we,we,t.namespaceURI,!o&&n?[n]:a?null:t.firstChild?Ee.call(t.childNodes):null,r,!o&&n?n:a?a.__e:t.firstChild,o,l),$t(r,e,l),e.props.children=null}Ee=ke.slice,T={__e:function(e,t,n,o){for(var a,r,l;t=t.__;)if((a=t.__c)&&!a.__)try{if((r=a.constructor)&&r.getDerivedStateFromError!=null&&(a.setState(r.getDerivedStateFromError(e)),l=a.__d),a.componentDidCatch!=null&&(a.componentDidCatch(e,o||{}),l=a.__d),l)return a.__E=a}catch(s){e=s}throw e}},ct=0,pn=function(e){return e!=null&&e.constructor===void 0},de.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=ee({},this.state),typeof e=="function"&&(e=e(ee({},n),this.props)),e&&ee(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),it(this))},de.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),it(this))},de.prototype.render=Te,oe=[],ut=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,pt=function(e,t){return e.__v.__b-t.__v.__b},Se.__r=0,Me=Math.random().toString(8),ye="__d"+Me,pe="__a"+Me,dt=/(PointerCapture)$|Capture$/i,qe=0,Le=lt(!1),We=lt(!0),dn=0;var te={roles:new Set,perms:new Set,users:new Set},Ce=new Set,Be=!1;function Ve(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function Ke(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Ve(te.roles,n.role)|t,t=Ve(te.perms,n.name)|t,t=Ve(te.users,n.user)|t);t&&!Be&&(Be=!0,queueMicrotask(()=>{Be=!1,Ce.forEach(n=>n())}))}function yt(e,t){te[e].delete(t)&&Ce.forEach(n=>n())}function vt(e){return Ce.add(e),()=>Ce.delete(e)}var ze="rolegate.console.key",wt=location.pathname.replace(/console\/[^/]*$/,""),Xe=()=>sessionStorage.getItem(ze)||"",kt=e=>sessionStorage.setItem(ze,e),Je=()=>sessionStorage.removeItem(ze),St=!0,B=()=>St,Et=e=>{St=e};async function xt(){try{let e=await fetch(new URL(wt+"api/whoami",location.origin),{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store",referrerPolicy:"no-referrer"});if(!e.ok)return null;let t=await e.json();return t&&t.success===!0&&t.data&&t.data.user?t.data:null}catch{return null}}var me=class extends Error{constructor(t,n){super(n),this.status=t}},Rt=()=>{},Tt=e=>{Rt=e},Ct=()=>{},Pt=e=>{Ct=e},b=encodeURIComponent;async function E(e,t,{query:n,body:o,key:a,total:r}={}){if(t.split("/").some(i=>i==="."||i===".."))throw new me(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let l=new URL(wt+"api/"+t,location.origin);for(let[i,m]of Object.entries(n||{}))m!=null&&m!==""&&l.searchParams.set(i,String(m));let s=a??Xe(),u={Accept:"application/json"};s&&(u.Authorization="Bearer "+s);let c={method:e,headers:u,credentials:s?"omit":"same-origin",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(u["Content-Type"]="application/json",c.body=JSON.stringify(o));let p;for(let i=0;;i++){try{p=await fetch(l,c)}catch(h){throw new me(0,"The server cannot be reached ("+h.message+")")}if(p.status!==429||i>0)break;let m=Math.min(10,Math.max(0,Number(p.headers.get("Retry-After"))||1));Ct(m),await new Promise(h=>setTimeout(h,m*1e3))}let f=null;try{f=await p.json()}catch{}if(!p.ok||!f||f.success!==!0){let i=f&&f.message?f.message:p.status+" "+p.statusText;throw f&&f.error&&f.error!==f.message&&(i+=": "+f.error),p.status===429&&(i="The server is busy (429), even after waiting as it asked: "+i),p.status===401&&a===void 0&&Rt(i),new me(p.status,i)}if(r){let i=p.headers.get("X-Total-Count"),m=i===null||i===""?NaN:Number(i);return{data:f.data,total:Number.isSafeInteger(m)&&m>=0?m:null}}return f.data}async function O(e,t){let n=await E("GET",e,{query:t});return Ke(n),n}async function fe(e,t){let{data:n,total:o}=await E("GET",e,{query:t,total:!0});return Ke(n),{items:n,total:o}}var Y=(e,t)=>fe(e,{...t,total:"true"}),gn=new Intl.Collator(void 0,{numeric:!0,sensitivity:"variant"}),X=(e,t)=>gn.compare(e,t)||(e<t?-1:e>t?1:0);var At=function(e,t,n,o){var a;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],s=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=s:l===4?o[1]=Object.assign(o[1]||{},s):l===5?(o[1]=o[1]||{})[t[++r]]=s:l===6?o[1][t[++r]]+=s+"":l?(a=e.apply(s,At(e,s,n,["",null])),o.push(a),s[0]?t[0]|=2:(t[r-2]=0,t[r]=a)):o.push(s)}return o},Ut=new Map;function It(e){var t=Ut.get(this);return t||(t=new Map,Ut.set(this,t)),(t=At(this,t.get(e)||(t.set(e,t=(function(n){for(var o,a,r=1,l="",s="",u=[0],c=function(i){r===1&&(i||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,i,l):r===3&&(i||l)?(u.push(3,i,l),r=2):r===2&&l==="..."&&i?u.push(4,i,0):r===2&&l&&!i?u.push(5,0,!0,l):r>=5&&((l||!i&&r===5)&&(u.push(r,0,l,a),r=6),i&&(u.push(r,i,0,a),r=6)),l=""},p=0;p<n.length;p++){p&&(r===1&&c(),c(p));for(var f=0;f<n[p].length;f++)o=n[p][f],r===1?o==="<"?(c(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:s?o===s?s="":l+=o:o==='"'||o==="'"?s=o:o===">"?(c(),r=1):r&&(o==="="?(r=5,a=l,l=""):o==="/"&&(r<5||n[p][f+1]===">")?(c(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(c(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return c(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=It.bind(Re);var _e,P,Ye,Nt,he=0,Ht=[],I=T,Dt=I.__b,Ft=I.__r,Mt=I.diffed,Lt=I.__c,Wt=I.unmount,qt=I.__;function Qe(e,t){I.__h&&I.__h(P,e,he||t),he=0;var n=P.__H||(P.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function _(e){return he=1,yn(Vt,e)}function yn(e,t,n){var o=Qe(_e++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Vt(void 0,t),function(s){var u=o.__N?o.__N[0]:o.__[0],c=o.t(u,s);u!==c&&(o.__N=[c,o.__[1]],o.__c.setState({}))}],o.__c=P,!P.__f)){var a=function(s,u,c){if(!o.__c.__H)return!0;var p=!1,f=o.__c.props!==s;if(o.__c.__H.__.some(function(m){if(m.__N){p=!0;var h=m.__[0];m.__=m.__N,m.__N=void 0,h!==m.__[0]&&(f=!0)}}),r){var i=r.call(this,s,u,c);return p?i||f:i}return!p||f};P.__f=!0;var r=P.shouldComponentUpdate,l=P.componentWillUpdate;P.componentWillUpdate=function(s,u,c){if(this.__e){var p=r;r=void 0,a(s,u,c),r=p}l&&l.call(this,s,u,c)},P.shouldComponentUpdate=a}return o.__N||o.__}function H(e,t){var n=Qe(_e++,3);!I.__s&&Bt(n.__H,t)&&(n.__=e,n.u=t,P.__H.__h.push(n))}function re(e){return he=5,jt(function(){return{current:e}},[])}function jt(e,t){var n=Qe(_e++,7);return Bt(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function Gt(e,t){return he=8,jt(function(){return e},t)}function vn(){for(var e;e=Ht.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(Pe),t.__h.some(Ze),t.__h=[]}catch(n){t.__h=[],I.__e(n,e.__v)}}}I.__b=function(e){P=null,Dt&&Dt(e)},I.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),qt&&qt(e,t)},I.__r=function(e){Ft&&Ft(e),_e=0;var t=(P=e.__c).__H;t&&(Ye===P?(t.__h=[],P.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(Pe),t.__h.some(Ze),t.__h=[],_e=0)),Ye=P},I.diffed=function(e){Mt&&Mt(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(Ht.push(t)!==1&&Nt===I.requestAnimationFrame||((Nt=I.requestAnimationFrame)||wn)(vn)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),Ye=P=null},I.__c=function(e,t){t.some(function(n){try{n.__h.some(Pe),n.__h=n.__h.filter(function(o){return!o.__||Ze(o)})}catch(o){t.some(function(a){a.__h&&(a.__h=[])}),t=[],I.__e(o,n.__v)}}),Lt&&Lt(e,t)},I.unmount=function(e){Wt&&Wt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{Pe(o)}catch(a){t=a}}),n.__H=void 0,t&&I.__e(t,n.__v))};var Ot=typeof requestAnimationFrame=="function";function wn(e){var t,n=function(){clearTimeout(o),Ot&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);Ot&&(t=requestAnimationFrame(n))}function Pe(e){var t=P,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),P=t}function Ze(e){var t=P;e.__c=e.__(),P=t}function Bt(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function Vt(e,t){return typeof t=="function"?t(e):t}var C=50;function L(e,t,n,o=!0,a=C,r=0){let l=JSON.stringify(n),[s,u]=_({key:l,cursors:[void 0]}),c=s.key===l?s.cursors:[void 0],[p,f]=_(0),i=p+r,m=c[c.length-1],h=JSON.stringify([l,c.length,m??null,o]),[$,v]=_({question:"",tick:-1,items:[],total:null,error:""});H(()=>{if(!o){v({question:h,tick:i,items:[],total:null,error:""});return}let M=!0;return e(m).then(S=>M&&v(Array.isArray(S)||!S?{question:h,tick:i,items:S||[],total:null,error:""}:{question:h,tick:i,items:S.items||[],total:S.total??null,error:""}),S=>M&&v({question:h,tick:i,items:[],total:null,error:S.message})),()=>{M=!1}},[h,i]);let k=$.question===h,y=k?$.items:[],D=!k||$.tick!==i;return{items:y,loading:D,current:k,total:k?$.total:null,error:k?$.error:"",page:c.length,hasNext:k&&y.length>=a,hasPrev:c.length>1,next:()=>y.length&&u({key:l,cursors:[...c,t(y[y.length-1])]}),prev:()=>u({key:l,cursors:c.slice(0,-1)}),reload:()=>f(M=>M+1)}}function kn({p:e,label:t,total:n,size:o=C}){if(!e.hasPrev&&!e.hasNext)return null;let a=n>0?Math.max(1,Math.ceil(n/o)):0;return d`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${a?" of "+a:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function ne({text:e,id:t}){return e?d`<p class="error" role="alert" id=${t}>${e}</p>`:null}function w({id:e,label:t,value:n,onInput:o,required:a,placeholder:r,type:l,hint:s,list:u,note:c}){let p=[s&&e+"-hint",c&&e+"-new"].filter(Boolean).join(" ");return d`<div class="field">
    <label for=${e}>${t}${a?"":d` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${a} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${p||void 0}
      onInput=${f=>o(f.currentTarget.value)} />
    ${s&&d`<small id=${e+"-hint"}>${s}</small>`}
    ${c&&d`<small class="note" id=${e+"-new"}>${c}</small>`}
  </div>`}var J="known-roles",Z="known-perms",V="known-users";function tt(){let[,e]=_(0);H(()=>vt(()=>e(n=>n+1)),[]);let t=n=>[...n].sort(X).map(o=>d`<option key=${o} value=${o} />`);return d`<datalist id=${J}>${t(te.roles)}</datalist>
    <datalist id=${Z}>${t(te.perms)}</datalist>
    <datalist id=${V}>${t(te.users)}</datalist>`}function se(e,t){let n=t.trim();if(!n||te[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var Ue={owner:"",text:"",kind:"",at:""},et=new Set;function le(e,t,n="ok",o=location.hash){Ue={owner:e,text:t,kind:n,at:o},et.forEach(a=>a())}var Kt=()=>le("","","");function j({owner:e}){let[,t]=_(0);H(()=>{let r=()=>t(l=>l+1);return et.add(r),()=>et.delete(r)},[]);let n=Ue.owner===e&&Ue.at===location.hash?Ue:null,o=n?n.text:"",a=n?n.kind:"";return d`<p id=${e+"-status"} class=${"msg "+a} role=${a==="error"?"alert":"status"}
    aria-live=${a==="error"?"assertive":"polite"}>${o}</p>`}function N(e){let[t,n]=_(!1),[o,a]=_(""),r=re(!0);H(()=>()=>{r.current=!1},[]);let l=Gt(async s=>{let u=location.hash;n(!0),a("");let c=()=>r.current&&location.hash===u;try{let p=await s();return e&&typeof p=="string"&&c()&&le(e,p,"ok",u),p}catch(p){if(!c())return;e?le(e,p.message,"error",u):a(p.message);return}finally{r.current&&n(!1)}},[e]);return{busy:t,error:o,run:l,setError:a}}function U({p:e,label:t,empty:n,render:o,id:a,total:r,counted:l,prefix:s,size:u}){let c=r??e.total,p=c!=null&&!e.error&&e.current;return d`<div class="list" id=${a} aria-busy=${e.loading?"true":"false"}>
    ${e.error&&d`<div class="failed"><p class="error" role="alert">${e.error}</p>
      <button type="button" class="retry" onClick=${e.reload}>Retry</button></div>`}
    ${l&&p&&c>0&&d`<p class="count" id=${a+"-count"}>${G(c)} ${c===1?l[0]:l[1]}${s?" starting with \u201C"+s+"\u201D":""}</p>`}
    ${e.loading&&e.items.length===0&&!e.error&&d`<p class="loading">Loading…</p>`}
    ${!e.loading&&!e.error&&e.items.length===0&&d`<p class="empty">${n}</p>`}
    ${e.items.length>0&&d`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${kn} p=${e} label=${t} total=${c} size=${u} />
  </div>`}var G=e=>Number(e).toLocaleString("en"),A=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function zt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function Q({id:e,label:t,value:n,onInput:o,list:a}){return d`<div class="search" role="search">
    <${w} id=${e} label=${t} value=${n} onInput=${o} list=${a} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function ie(e,t=250){let[n,o]=_(e);return H(()=>{let a=setTimeout(()=>o(e),t);return()=>clearTimeout(a)},[e,t]),n}var Ae="rolegate.console.drafts";function Xt(){let e={};document.querySelectorAll("main input[id]:not([type=password]):not([type=search])").forEach(t=>{t.value&&(e[t.id]=t.value)}),Object.keys(e).length&&sessionStorage.setItem(Ae,JSON.stringify({at:location.hash,values:e}))}function Sn(e){let t;try{t=JSON.parse(sessionStorage.getItem(Ae)||"null")}catch{t=null}if(!t||t.at!==location.hash||!(e in t.values))return;let n=t.values[e];return delete t.values[e],Object.keys(t.values).length?sessionStorage.setItem(Ae,JSON.stringify(t)):sessionStorage.removeItem(Ae),n}function x(e,t=""){return _(()=>Sn(e)??t)}function W(e){setTimeout(()=>{let t=typeof e=="string"?document.querySelector(e):e;t&&t.isConnected&&t.focus()},0)}function Ie(e){let t=ie(e.trim(),300),[n,o]=_({name:"",unknown:!1});return H(()=>{if(!t)return;let a=!0;return E("GET","users",{query:{prefix:t,limit:1}}).then(r=>a&&o({name:t,unknown:!(r.length&&r[0].user===t)}),()=>a&&o({name:t,unknown:!1})),()=>{a=!1}},[t]),n.name===e.trim()&&n.unknown?"\u201C"+n.name+"\u201D holds no membership yet: check the spelling (a new user is fine).":""}function Jt(){let[e,t]=_(""),n=ie(e),o=L(m=>fe("roles",{limit:C,after:m,prefix:n}),m=>m.role,[n]),[a,r]=x("new-role"),[l,s]=x("new-role-desc"),[u,c]=_(""),p=re(null);H(()=>{!u&&p.current&&p.current.isConnected&&p.current.focus()},[u]);let f=N("new-role"),i=m=>{m.preventDefault(),f.run(async()=>{let $="Role "+(await E("POST","role/"+b(a),{body:l?{description:l}:void 0})).role+" created.";return r(""),s(""),o.reload(),W("#new-role"),$})};return d`
    ${B()&&d`<section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${i}>
        <${w} id="new-role" label="Role name" value=${a} onInput=${r} required />
        <${w} id="new-role-desc" label="Description" value=${l} onInput=${s} />
        <button type="submit" disabled=${f.busy}>Create role</button>
      </form>
      <${j} owner="new-role" />
    </section>`}
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${Q} id="find-role" label="Find roles" value=${e} onInput=${t} list=${J} />
      <${j} owner="roles" />
      <${U} p=${o} label="Roles" id="roles-list" counted=${["role","roles"]} prefix=${n} empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>d`
        <li key=${m.role} class="row">
          <a href=${A("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          ${B()&&d`<button type="button" class="danger" onClick=${h=>{p.current=h.currentTarget,c(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>`}
        </li>`} />
    </section>
    ${u&&d`<${En} role=${u} onClose=${m=>{c(""),m&&(yt("roles",u),le("roles",m),o.reload(),p.current=null,W("#find-role"))}} />`}`}var Ne=100;function En({role:e,onClose:t}){let n=re(),[o,a]=_(null),[r,l]=_(""),s=N(),u=N();H(()=>{let m=n.current;m.showModal(),W("#cancel-delete");let h=()=>t("");return m.addEventListener("cancel",h),s.run(async()=>{let $="role/"+b(e),v=await O($),k=await O("members/"+b(e),{limit:Ne}),y=await O("role_permissions/"+b(e),{limit:Ne}),D=await O($+"/inherits",{limit:Ne}),M=await O($+"/inherited_by",{limit:Ne});a({counts:v.counts,members:k.map(S=>S.user),perms:y.map(S=>S.name),parents:D.map(S=>S.role),children:M.map(S=>S.role)}),v.counts.members+v.counts.scoped_members>0&&W("#confirm-name")}),()=>m.removeEventListener("cancel",h)},[e]);let c=o&&o.counts,p=c&&c.members+c.scoped_members>0,f=()=>s.run(async()=>{let m=await E("DELETE","role/"+b(e));t(m.deleted?"Role "+e+" deleted, with "+ce(c.members+c.scoped_members,"membership")+" and "+ce(c.permissions,"permission")+".":"Role "+e+" was already gone.")}),i=(m,h)=>h===0?"none":m.join(", ")+(h>m.length?" and "+(h-m.length)+" more":"");return d`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${ne} text=${s.error} />
    ${o?d`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${ce(c.members,"global membership")}</strong>: ${i(o.members,c.members)}</li>
        <li><strong>${ce(c.scoped_members,"membership")} in a scope</strong>${c.scoped_members?d` (<a href=${"#/members//"+encodeURIComponent(e)} onClick=${()=>t("")}>list them</a>)`:""}</li>
        <li><strong>${ce(c.permissions,"permission")}</strong>: ${i(o.perms,c.permissions)}</li>
        <li><strong>${ce(c.parents,"parent link")}</strong> (it inherits from): ${i(o.parents,c.parents)}</li>
        <li><strong>${ce(c.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${i(o.children,c.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back. The audit log records these counts; the change feed names each membership.</p>
      <p><button type="button" id="export-role" disabled=${u.busy} onClick=${()=>u.run(()=>xn(e))}>Export its grants and members (CSV)</button>
        ${u.busy?" Exporting\u2026":""}</p>
      <${ne} text=${u.error} />
      ${p&&d`<${w} id="confirm-name" label=${"Type "+e+" to confirm"} value=${r} onInput=${l} required />`}
    </div>`:d`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${f}
        disabled=${!o||s.busy||p&&r!==e}>Delete ${e}</button>
      <button type="button" id="cancel-delete" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}async function xn(e){let t=[["kind","name","scope"]],n=async(l,s,u,c)=>{let p;for(;;){let f=await O(l,{...s,limit:1e3,after:p});if(f.forEach(i=>t.push(u(i))),f.length<1e3)return;p=c(f[f.length-1])}};await n("role_permissions/"+b(e),{},l=>["grant",l.name,""],l=>l.name),await n("members/"+b(e),{},l=>["member",l.user,""],l=>l.user),await n("scoped_memberships",{role:e},l=>["member",l.user,l.scope],l=>l.scope+"/"+l.user+"/"+l.role);let o=t.map(l=>l.map(s=>/[",\n\r]/.test(s)?'"'+s.replace(/"/g,'""')+'"':s).join(",")).join(`\r
`)+`\r
`,a=URL.createObjectURL(new Blob([o],{type:"text/csv"})),r=document.createElement("a");r.href=a,r.download="role-"+e.replace(/[^A-Za-z0-9._-]/g,"_")+".csv",document.body.append(r),r.click(),r.remove(),setTimeout(()=>URL.revokeObjectURL(a),1e4)}function ce(e,t){return G(e)+" "+t+(e===1?"":"s")}function Yt({role:e}){let[t,n]=_(0),[o,a]=_({detail:null,error:""});H(()=>{let p=!0;return O("role/"+b(e)).then(f=>p&&a({detail:f,error:""}),f=>p&&a({detail:null,error:f.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":f.message})),()=>{p=!1}},[e,t]);let r=()=>n(p=>p+1),l=o.detail!==null,s=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:l},c=p=>s?" ("+G(p==="members"?s.members+s.scoped_members:s[p])+")":"";return d`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${ne} text=${o.error} id="role-error" />
    ${l&&d`<nav class="toc" aria-label="On this page"><ul>
      <li><a href="#grants-h" onClick=${nt("grants-h")}>Grants${c("permissions")}</a></li>
      <li><a href="#parents-h" onClick=${nt("parents-h")}>Inherits${c("parents")}</a></li>
      <li><a href="#members-h" onClick=${nt("members-h")}>Members${c("members")}</a></li>
    </ul></nav>`}
    <fieldset class="plain" disabled=${!l}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${l&&d`<${Rn} role=${e} current=${o.detail.description||""}
        done=${p=>a({detail:{...o.detail,description:p},error:""})} />`}
      <div class="cols">
        <${Tn} ...${u} total=${s?s.permissions:null} />
        <${Cn} ...${u} total=${s?s.parents:null} />
      </div>
      ${l&&d`<${Pn} ...${u} count=${s.children} />
        <${Un} ...${u} inherits=${s.parents>0} />`}
      <${In} ...${u} total=${s?s.members:null} />
    </fieldset>`}var nt=e=>t=>{t.preventDefault();let n=document.getElementById(e);n&&(n.scrollIntoView(),W(n))};function Rn({role:e,current:t,done:n}){if(!B())return null;let[o,a]=_(!1),[r,l]=_(t),s=N("describe"),u=()=>{a(!1),W("#edit-desc")};return d`<div class="describe">
    ${o?d`<form class="inline" onSubmit=${p=>{p.preventDefault(),s.run(async()=>{let f=await E("PUT","role/"+b(e),{body:{description:r}});return n(f.description),u(),f.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${w} id="role-desc-edit" label="Description" value=${r} onInput=${l} hint="Empty: no description." />
        <button type="submit" disabled=${s.busy}>Save description</button>
        <button type="button" onClick=${()=>{l(t),u()}}>Cancel</button>
      </form>`:d`<button type="button" id="edit-desc" onClick=${()=>{l(t),a(!0),W("#role-desc-edit")}}>Edit description</button>`}
    <${j} owner="describe" />
  </div>`}function ot({id:e,label:t,button:n,add:o,extra:a,owner:r,list:l,note:s}){if(!B())return null;let[u,c]=x(e),p=N(r);return d`<form class="inline" onSubmit=${i=>{i.preventDefault(),p.run(async()=>{let m=await o(u);return c(""),W("#"+e),m})}}>
      <${w} id=${e} label=${t} value=${u} onInput=${c} required list=${l} note=${s?s(u):""} />
      ${a}
      <button type="submit" disabled=${p.busy}>${n}</button>
    </form>`}function rt({label:e,remove:t,owner:n,heading:o}){if(!B())return null;let a=N(n);return d`<button type="button" class="danger" aria-label=${e} disabled=${a.busy}
    onClick=${r=>{let l=r.currentTarget.closest("li"),s=l&&(l.nextElementSibling||l.previousElementSibling);a.run(async()=>{let u=await t();return W(s&&s.querySelector("button.danger")||"#"+o),u})}}>Remove</button>`}function $e(e,t,n,o,a,r,l){let[s,u]=_(""),c=ie(s),p=!!c||r===null,f=L(m=>p?Y(e,{...t,limit:C,after:m,prefix:c}):O(e,{...t,limit:C,after:m}),n,[...o,c],a,C,l),i=p?f.total:r;return{p:f,find:s,setFind:u,prefix:c,total:i}}var De=e=>e.total!==null&&e.total!==void 0?" ("+G(e.total)+(e.prefix?" starting with \u201C"+e.prefix+"\u201D":"")+")":"";function Tn({role:e,tick:t,changed:n,ok:o,total:a}){let r=$e("role_permissions/"+b(e),{},s=>s.name,[e],o,a,t),l=s=>"permission/"+b(e)+"/"+b(s);return d`<section aria-labelledby="grants-h">
    <h2 id="grants-h" tabindex="-1">Permissions granted to ${e}${De(r)}</h2>
    <${ot} id="grant-name" label="Permission" button="Grant" owner="grants" list=${Z} note=${s=>se("perms",s)} add=${async s=>(await E("POST",l(s)),n(),"Granted "+s+" to "+e+".")} />
    <${j} owner="grants" />
    <${Q} id="find-grant" label="Find grants" value=${r.find} onInput=${r.setFind} list=${Z} />
    ${o&&d`<${U} p=${r.p} total=${r.total} label="Granted permissions" id="grants-list"
      empty=${r.prefix?"No grant starts with \u201C"+r.prefix+"\u201D.":"No permissions granted directly."} render=${s=>d`
      <li key=${s.name} class="row"><a href=${A("whocan",s.name)}>${s.name}</a>
        <${rt} owner="grants" heading="grants-h" label=${"Remove permission "+s.name} remove=${async()=>(await E("DELETE",l(s.name)),n(),"Removed "+s.name+" from "+e+".")} /></li>`} />`}
  </section>`}function Cn({role:e,tick:t,changed:n,ok:o,total:a}){let r=$e("role/"+b(e)+"/inherits",{},s=>s.role,[e],o,a,t),l=s=>"role/"+b(e)+"/inherits/"+b(s);return d`<section aria-labelledby="parents-h">
    <h2 id="parents-h" tabindex="-1">${e} inherits from${De(r)}</h2>
    <${ot} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${J} note=${s=>se("roles",s)} add=${async s=>(await E("POST",l(s)),n(),e+" now inherits from "+s+".")} />
    <${j} owner="parents" />
    <${Q} id="find-parent" label="Find parents" value=${r.find} onInput=${r.setFind} list=${J} />
    ${o&&d`<${U} p=${r.p} total=${r.total} label="Parent roles" id="parents-list"
      empty=${r.prefix?"No parent starts with \u201C"+r.prefix+"\u201D.":"Inherits from no role."} render=${s=>d`
      <li key=${s.role} class="row"><a href=${A("role",s.role)}>${s.role}</a>
        <${rt} owner="parents" heading="parents-h" label=${"Remove parent "+s.role+" (stop inheriting from it)"} remove=${async()=>(await E("DELETE",l(s.role)),n(),e+" no longer inherits from "+s.role+".")} /></li>`} />`}
  </section>`}function Zt({id:e,title:t,children:n,onToggle:o}){return d`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${a=>o(a.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function Pn({role:e,tick:t,ok:n,count:o}){let[a,r]=_(!1),l=$e("role/"+b(e)+"/inherited_by",{},s=>s.role,[e],n&&a&&o>0,o,t);return d`<${Zt} id="children" title=${"Roles inheriting from "+e+" ("+G(o)+")"} onToggle=${r}>
    ${o===0?d`<p class="empty" id="children-list">None.</p>`:d`
      <${Q} id="find-child" label="Find roles inheriting" value=${l.find} onInput=${l.setFind} list=${J} />
      <${U} p=${l.p} total=${l.total} label="Roles inheriting from it" id="children-list" empty="None." render=${s=>d`
      <li key=${s.role} class="row"><a href=${A("role",s.role)}>${s.role}</a></li>`} />`}
  <//>`}function Un({role:e,tick:t,ok:n,inherits:o}){let[a,r]=_(!1),l=$e("role_permissions/"+b(e),{effective:"true"},s=>s.name,[e],n&&a,null,t);return d`<${Zt} id="effective" title=${"Effective permissions of "+e+(a?De(l):"")} onToggle=${r}>
    <${Q} id="find-effective" label="Find effective permissions" value=${l.find} onInput=${l.setFind} list=${Z} />
    <${U} p=${l.p} total=${l.total} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${s=>d`
      <li key=${s.name+"/"+t} class="row wrap"><span class="name">${s.name}</span>
        ${o?d`<${An} role=${e} name=${s.name} />`:d`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function An({role:e,name:t}){let[n,o]=_(""),a=async()=>{o("\u2026");try{let r=await O("permission/"+b(e)+"/"+b(t),{explain:"true"}),l=r.chain||[];o(r.result?l.length<=1?"granted directly":"inherited from "+l[l.length-1]+" ("+l.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return d`<button type="button" aria-label=${"Where from? "+t} onClick=${a}>Where from?</button>
    ${n&&d`<span class="src" role="status">${n}</span>`}`}function In({role:e,tick:t,changed:n,ok:o,total:a}){let[r,l]=x("member-scope"),[s,u]=_(""),c=$e("members/"+b(e),{scope:s},i=>i.user,[e,s],o,s?null:a,t),p=i=>"membership/"+b(i)+"/"+b(e),f=i=>i?" of "+e+" in scope "+i:" global member of "+e;return d`<section aria-labelledby="members-h">
    <h2 id="members-h" tabindex="-1">Members of ${e}${De(c)}</h2>
    <${ot} id="member-user" label="User" button="Add member" owner="members" list=${V} note=${Ie} add=${async i=>(await E("POST",p(i),{query:{scope:r.trim()}}),n(),i+" is now a"+(r.trim()?" member":"")+f(r.trim())+".")} extra=${d`<${w} id="member-scope" label="Scope" value=${r} onInput=${l}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${j} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${s?"members in scope \u201C"+s+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${Q} id="find-member" label="Find members" value=${c.find} onInput=${c.setFind} list=${V} />
    ${o&&d`<${U} p=${c.p} label="Members" id="members-list" total=${c.total}
      empty=${c.prefix?"No member starts with \u201C"+c.prefix+"\u201D.":"No members."} render=${i=>d`
      <li key=${i.user+"/"+(i.scope||"")} class="row"><a href=${A("user",i.user)}>${i.user}</a>
        <span class=${i.scope?"scope":"scope global"}>${i.scope?"in scope "+i.scope:"global"}</span>
        <${rt} owner="members" heading="members-h" label=${"Remove "+i.user+(i.scope?" from scope "+i.scope:" (global member)")}
          remove=${async()=>{let m=await E("DELETE",p(i.user),{query:{scope:i.scope||void 0}});return n(),m.deleted?i.user+" is no longer a"+(i.scope?" member":"")+f(i.scope)+".":i.user+" was already not a"+(i.scope?" member":"")+f(i.scope)+"."}} /></li>`} />`}
  </section>`}function Fe({go:e,initial:t}){let[n,o]=_(t||"");return d`<form class="inline" onSubmit=${a=>{a.preventDefault(),n.trim()&&e(A("user",n.trim()))}}>
    <${w} id="lookup-user" label="User" value=${n} onInput=${o} required list=${V} />
    <button type="submit">Show user</button>
  </form>`}function en({go:e}){let[t,n]=_(""),o=ie(t),a=L(r=>fe("users",{limit:C,after:r,prefix:o}),r=>r.user,[o]);return d`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${Fe} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${Q} id="find-user" label="Find users" value=${t} onInput=${n} list=${V} />
      <${U} p=${a} label="Users" id="users-list" counted=${["user","users"]} prefix=${o} empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>d`<li key=${r.user} class="row"><a href=${A("user",r.user)}>${r.user}</a></li>`} />
    </section>`}var ue=e=>e?"in scope "+e:"globally";async function tn(e,t,n){let o=await O("has_permission/"+b(e)+"/"+b(t),{scope:n,explain:"true"});return o.result?e+" can "+t+" "+ue(n)+": yes, "+zt(o.grant)+".":e+" cannot "+t+" "+ue(n)+"."}function nn({user:e,go:t}){let[n,o]=_(0),a=()=>o(r=>r+1);return d`
    <${Fe} go=${t} initial=${e} />
    <div class="cols">
      <${Nn} user=${e} />
      <${Dn} user=${e} />
    </div>
    <${Fn} user=${e} changed=${a} />
    <div class="cols">
      <${Mn} user=${e} tick=${n} changed=${a} />
      <${Ln} user=${e} tick=${n} changed=${a} />
    </div>
    <${Wn} user=${e} tick=${n} />
    <${On} user=${e} go=${t} />`}function Nn({user:e}){let[t,n]=x("check-perm"),[o,a]=x("user-scope"),[r,l]=_(null),s=N("check"),u=p=>{p.preventDefault();let f={perm:t.trim(),scope:o.trim()};l(null),s.run(async()=>{let i=await tn(e,f.perm,f.scope);l({...f,text:i,yes:i.includes(": yes")}),W("#check-result")})},c=r&&r.perm===t.trim()&&r.scope===o.trim()?r:null;return d`<section aria-labelledby="check-h">
    <h2 id="check-h">Can ${e} …?</h2>
    <form class="inline" onSubmit=${u}>
      <${w} id="check-perm" label="Permission" value=${t} onInput=${n} required list=${Z}
        note=${se("perms",t)} />
      <${w} id="user-scope" label="Scope" value=${o} onInput=${a} hint="Empty: globally (global memberships only)." />
      <button type="submit" disabled=${s.busy}>Check</button>
    </form>
    <${j} owner="check" />
    <p id="check-result" tabindex="-1" role="status" aria-busy=${s.busy?"true":"false"}
      class=${c?c.yes?"yes":"no":""}>${s.busy?"Checking\u2026":c?c.text:""}</p>
  </section>`}function Dn({user:e}){let[t,n]=x("where-perm"),[o,a]=_(""),r=L(u=>o?E("GET","where_can/"+b(e)+"/"+b(o),{query:{limit:C,after:u},total:!0}).then(({data:c,total:p})=>({items:c.scopes.map(f=>({scope:f})),total:p,global:c.global})).then(c=>(Qt[e+"/"+o]=c.global,c)):Promise.resolve([]),u=>u.scope,[e,o]),l=o===t.trim(),s=Qt[e+"/"+o];return d`<section aria-labelledby="where-h">
    <h2 id="where-h">Where can ${e} …?</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault(),a(t.trim())}}>
      <${w} id="where-perm" label="Permission" value=${t} onInput=${n} required list=${Z} />
      <button type="submit">Where?</button>
    </form>
    ${o&&l&&d`<div id="where-result">
      ${r.current&&!r.error&&d`<p class="answer">${s?e+" can "+o+" globally, in every scope"+(r.total?"; also granted in these scopes:":"."):r.total?e+" can "+o+" in "+G(r.total)+" scope"+(r.total===1?"":"s")+":":e+" cannot "+o+" anywhere."}</p>`}
      <${U} p=${r} label=${"Scopes where "+e+" can "+o} id="where-list" empty="" size=${C}
        render=${u=>d`<li key=${u.scope} class="row"><span class="scope">${u.scope}</span></li>`} />
    </div>`}
  </section>`}var Qt={};function Fn({user:e,changed:t}){if(!B())return null;let[n,o]=x("add-role"),[a,r]=x("add-role-scope"),l=N("user-roles");return d`<section aria-labelledby="addr-h">
    <h2 id="addr-h">Give ${e} a role</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim(),p=a.trim();l.run(async()=>(await E("POST","membership/"+b(e)+"/"+b(c),{query:{scope:p}}),o(""),t(),W("#add-role"),e+" is now a member of "+c+" "+ue(p)+"."))}}>
      <${w} id="add-role" label="Role" value=${n} onInput=${o} required list=${J} note=${se("roles",n)} />
      <${w} id="add-role-scope" label="Scope" value=${a} onInput=${r} hint="Empty: a global membership, which holds in every scope." />
      <button type="submit" disabled=${l.busy}>Add role</button>
    </form>
    <${j} owner="user-roles" />
  </section>`}function on(e,t,n,o,a,r){if(!B())return null;let l="Remove "+t+(n?" in scope "+n:" (global)");return d`<button type="button" class="danger" aria-label=${l} disabled=${a.busy} onClick=${s=>{let u=s.currentTarget.closest("li"),c=u&&(u.nextElementSibling||u.previousElementSibling);a.run(async()=>{let p=await E("DELETE","membership/"+b(e)+"/"+b(t),{query:{scope:n||void 0}});o();let f=c&&c.querySelector("button.danger");return W(f||r),p.deleted?e+" is no longer a member of "+t+" "+ue(n)+".":e+" was already not a member of "+t+" "+ue(n)+"."})}}>Remove</button>`}function Mn({user:e,tick:t,changed:n}){let o=L(r=>Y("user_roles/"+b(e),{limit:C,after:r}),r=>r.role,[e],!0,C,t),a=N("user-roles");return d`<section aria-labelledby="uroles-h">
    <h2 id="uroles-h" tabindex="-1">Global roles${o.total!==null?" ("+G(o.total)+")":""}</h2>
    <p class="hint">Held in every scope.</p>
    <${U} p=${o} label="Global roles of the user" id="user-roles" empty="Member of no role globally." render=${r=>d`
      <li key=${r.role} class="row"><a href=${A("role",r.role)}>${r.role}</a>
        ${on(e,r.role,"",n,a,"#uroles-h")}</li>`} />
  </section>`}function Ln({user:e,tick:t,changed:n}){let o=L(s=>Y("scoped_memberships",{user:e,limit:C,after:s}),s=>s.scope+"/"+s.user+"/"+s.role,[e],!0,C,t),a=N("user-roles"),r=new Map;for(let s of o.items)r.has(s.scope)||r.set(s.scope,[]),r.get(s.scope).push(s);let l=[...r.keys()].sort(X);return d`<section aria-labelledby="scoped-roles-h">
    <h2 id="scoped-roles-h" tabindex="-1">Roles in scopes${o.total!==null?" ("+G(o.total)+")":""}</h2>
    <p class="hint">Each holds in its scope only.</p>
    <${U} p=${{...o,items:l}} label="Scoped roles of the user" id="user-scoped" empty="Member of no role in any scope."
      render=${s=>d`<li key=${s} class="group">
        <h3 class="scope-h">Scope ${s}</h3>
        <ul aria-label=${"Roles in scope "+s}>${r.get(s).sort((u,c)=>X(u.role,c.role)).map(u=>d`
          <li key=${u.role} class="row"><a href=${A("role",u.role)}>${u.role}</a>
            ${on(e,u.role,s,n,a,"#scoped-roles-h")}</li>`)}</ul></li>`} />
  </section>`}function Wn({user:e,tick:t}){let[n,o]=x("perms-scope"),[a,r]=_(""),[l,s]=_(""),u=ie(l),c=L(p=>Y("user_permissions/"+b(e),{limit:C,after:p,scope:a,prefix:u}),p=>p.name,[e,a,u],!0,C,t);return d`<section aria-labelledby="uperms-h">
    <h2 id="uperms-h">Effective permissions ${ue(a)}${c.total!==null?" ("+G(c.total)+")":""}</h2>
    <form class="inline" onSubmit=${p=>{p.preventDefault(),r(n.trim())}}>
      <${w} id="perms-scope" label="Scope" value=${n} onInput=${o} hint="Empty: globally." />
      <button type="submit">Show scope</button>
    </form>
    <${Q} id="find-perm" label="Find permissions" value=${l} onInput=${s} list=${Z} />
    <${U} p=${c} label="Effective permissions of the user" id="user-perms" empty=${u?"None starts with \u201C"+u+"\u201D.":"No permissions."}
      render=${p=>d`<${qn} key=${p.name+"/"+a+"/"+t} user=${e} name=${p.name} scope=${a} />`} />
  </section>`}function qn({user:e,name:t,scope:n}){let[o,a]=_("");return d`<li class="row wrap"><span class="name">${t}</span>
    <button type="button" aria-label=${"Why? "+t} onClick=${async()=>{a("\u2026");let r;try{r=await tn(e,t,n)}catch(l){r=l.message}a(r)}}>Why?</button>
    ${o&&d`<span class="why" role="status">${o}</span>`}</li>`}function On({user:e,go:t}){if(!B())return null;let[n,o]=x("rename-to"),[a,r]=_(!1),l=N("rename");return d`<section aria-labelledby="rename-h">
    <h2 id="rename-h">Rename ${e}</h2>
    <form class="inline" onSubmit=${u=>{u.preventDefault();let c=n.trim();l.run(async()=>{let p=await E("POST","user/"+b(e)+"/rename/"+b(c),{query:{merge:a?"true":void 0}}),f=e+" renamed to "+c+": "+p.moved+" membership"+(p.moved===1?"":"s")+" moved.",i=A("user",c);t(i),setTimeout(()=>le("rename",f,"ok",i),50)})}}>
      <${w} id="rename-to" label="New name" value=${n} onInput=${o} required
        hint="Every membership, global and in every scope, moves to the new name; the audit log records the rename." />
      <div class="check"><input type="checkbox" id="rename-merge" checked=${a} onChange=${u=>r(u.currentTarget.checked)} />
        <label for="rename-merge">Merge into a user who already has memberships</label></div>
      <button type="submit" disabled=${l.busy}>Rename</button>
    </form>
    <${j} owner="rename" />
  </section>`}function rn({go:e,scope:t,role:n,user:o}){let a=L(g=>Y("scoped_memberships",{limit:C,after:g,scope:t,role:n,user:o}),g=>g.scope+"/"+g.user+"/"+g.role,[t,n,o]),[r,l]=x("f-scope",t),[s,u]=x("f-role",n),[c,p]=x("f-user",o),[f,i]=x("m-user"),[m,h]=x("m-role"),[$,v]=x("m-scope"),k=N("add-membership"),y=N("scoped"),D=Ie(f),M=g=>{g.preventDefault();let R=f.trim(),q=m.trim(),K=$.trim();k.run(async()=>(await E("POST","membership/"+b(R)+"/"+b(q),{query:{scope:K}}),i(""),a.reload(),W("#m-user"),R+" is now a member of "+q+(K?" in scope "+K:" globally")+"."))},S=g=>{g.preventDefault();let R=[r.trim(),s.trim(),c.trim()];for(;R.length&&!R[R.length-1];)R.pop();e(R.length?"#/members/"+R.map(encodeURIComponent).join("/"):"#/members")},F=[t&&"scope "+t,n&&"role "+n,o&&"user "+o].filter(Boolean).join(", "),z=[...a.items].sort((g,R)=>X(g.scope,R.scope)||X(g.user,R.user)||X(g.role,R.role));return d`
    ${B()&&d`<section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${M}>
        <${w} id="m-user" label="User" value=${f} onInput=${i} required list=${V} note=${D} />
        <${w} id="m-role" label="Role" value=${m} onInput=${h} required list=${J} note=${se("roles",m)} />
        <${w} id="m-scope" label="Scope" value=${$} onInput=${v} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${k.busy}>Add membership</button>
      </form>
      <${j} owner="add-membership" />
    </section>`}
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${Fe} go=${e} />
      <p class="hint">Global members are listed on each role's page and each user's.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h" tabindex="-1">Memberships in one scope${F?": "+F:""}${a.total!==null?" ("+G(a.total)+")":""}</h2>
      <form class="inline filters" onSubmit=${S} aria-label="Filter memberships">
        <${w} id="f-scope" label="Scope" value=${r} onInput=${l} hint="Exactly this scope; empty: every scope." />
        <${w} id="f-role" label="Role" value=${s} onInput=${u} list=${J} />
        <${w} id="f-user" label="User" value=${c} onInput=${p} list=${V} />
        <button type="submit">Filter</button>
      </form>
      <${j} owner="scoped" />
      <${U} p=${{...a,items:z}} label="Scoped memberships" id="scoped-list" total=${a.total}
        empty=${F?"No scoped membership of "+F+".":"No scoped memberships."} render=${g=>d`
        <li key=${g.scope+"/"+g.user+"/"+g.role} class="row">
          <span class="scope">${g.scope}</span>
          <span class="grow"><a href=${A("user",g.user)}>${g.user}</a> is a member of <a href=${A("role",g.role)}>${g.role}</a></span>
          ${B()&&d`<button type="button" class="danger" aria-label=${"Remove "+g.user+" from "+g.role+" in scope "+g.scope}
            onClick=${R=>{let q=R.currentTarget.closest("li"),K=q&&(q.nextElementSibling||q.previousElementSibling);y.run(async()=>(await E("DELETE","membership/"+b(g.user)+"/"+b(g.role),{query:{scope:g.scope}}),a.reload(),W(K&&K.querySelector("button.danger")||"#scoped-h"),g.user+" is no longer a member of "+g.role+" in scope "+g.scope+"."))}}>Remove</button>`}</li>`} />
    </section>`}function an({name:e,scope:t,go:n}){let[o,a]=_(e||""),[r,l]=_(t||""),s=L(p=>e?Y("which_users_can/"+b(e),{limit:C,after:p,scope:t}):Promise.resolve([]),p=>p.user,[e,t]),u=L(p=>e?Y("which_roles_can/"+b(e),{limit:C,after:p}):Promise.resolve([]),p=>p.role,[e]),c=p=>p.total!==null?" ("+G(p.total)+")":"";return d`
    <form class="inline" onSubmit=${p=>{p.preventDefault(),o.trim()&&n(r.trim()?A("whocan",o.trim(),r.trim()):A("whocan",o.trim()))}}>
      <${w} id="whocan-perm" label="Permission" value=${o} onInput=${a} required list=${Z} />
      <${w} id="whocan-scope" label="Scope" value=${r} onInput=${l} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&d`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}${c(s)}</h2>
        <${U} p=${s} label="Users" id="whocan-users" counted=${["user","users"]} empty="Nobody." render=${p=>d`
          <li key=${p.user} class="row"><a href=${A("user",p.user)}>${p.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}${c(u)}</h2>
        <${U} p=${u} label="Roles" id="whocan-roles" counted=${["role","roles"]} empty="No role." render=${p=>d`
          <li key=${p.role} class="row"><a href=${A("role",p.role)}>${p.role}</a></li>`} />
      </section>
    </div>`}`}var Hn=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","rename_user","batch"],jn=e=>e?"removed "+[[e.grants,"grant"],[e.memberships,"global membership"],[e.scoped_memberships,"scoped membership"],[e.parents,"parent link"],[e.children,"child link"]].map(([t,n])=>G(t)+" "+n+(t===1?"":"s")).join(", "):"",sn=(e,t)=>{if(!/^\d{4}-\d{2}-\d{2}$/.test(e))return;let n=new Date(e+"T00:00:00Z");return t&&n.setUTCDate(n.getUTCDate()+1),n.toISOString()};function ln(){let[e,t]=x("audit-action"),[n,o]=x("audit-actor"),[a,r]=x("audit-resource"),[l,s]=x("audit-from"),[u,c]=x("audit-to"),[p,f]=_({}),i=L($=>O("audit",{limit:C,before:$,...p}),$=>$.id,[p]),m=$=>{$.preventDefault();let v=n.trim();f({action:e.trim()||void 0,actor:v&&!/^(user|key):|^(library|anonymous)$/.test(v)?"user:"+v:v||void 0,resource:a.trim()||void 0,since:sn(l),until:sn(u,!0)})},h=Object.entries(p).filter(([,$])=>$).map(([$,v])=>$+" "+v).join(", ");return d`
    <form class="inline filters" onSubmit=${m} aria-label="Filter the audit log">
      <${w} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions" hint="Empty: every action." />
      <datalist id="audit-actions">${Hn.map($=>d`<option value=${$} />`)}</datalist>
      <${w} id="audit-actor" label="Who" value=${n} onInput=${o} list=${V} hint="A user's name, user:NAME, key:XXXXXXXX or library." />
      <${w} id="audit-resource" label="Resource" value=${a} onInput=${r} hint="role:NAME, membership:USER, permission:ROLE…" />
      <${w} id="audit-from" type="date" label="From (UTC)" value=${l} onInput=${s} />
      <${w} id="audit-to" type="date" label="To (UTC)" value=${u} onInput=${c} />
      <button type="submit">Filter</button>
    </form>
    ${i.error&&d`<div class="failed"><${ne} text=${i.error} /><button type="button" class="retry" onClick=${i.reload}>Retry</button></div>`}
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${i.loading?"true":"false"}>
        <caption>Audit records, newest first${h?", "+h:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Who</th><th scope="col">Reason</th><th scope="col">Request</th></tr></thead>
        <tbody>${i.items.map($=>d`<tr key=${$.id}>
          <td data-label="When"><time datetime=${$.at}>${$.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${$.action}</td><td data-label="Resource">${$.resource}${$.detail?d`<br /><small class="detail">${jn($.detail)}</small>`:""}</td>
          <td data-label="Outcome">${$.outcome}</td><td data-label="Who" class="actor">${$.actor}</td>
          <td data-label="Reason">${$.reason}</td><td data-label="Request" class="mono">${$.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${i.loading&&i.items.length===0&&d`<p class="loading">Loading…</p>`}
    ${!i.loading&&!i.error&&i.items.length===0&&d`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${i.prev} disabled=${!i.hasPrev}>Newer</button>
      <span>Page ${i.page}</span>
      <button type="button" onClick=${i.next} disabled=${!i.hasNext}>Older</button>
    </nav>`}function cn({me:e}){return d`${[...e.members].sort((t,n)=>X(t.scope,n.scope)).map(t=>d`<${Gn} key=${t.scope} d=${t} />`)}`}var be=e=>e?"in scope "+e:"globally";function Gn({d:e}){let[t,n]=_(0),[o,a]=_(""),[r,l]=_(e.roles[0]||""),s="d-"+(e.scope||"global").replace(/[^A-Za-z0-9_-]/g,"_"),u=N(s),c=f=>{f.preventDefault(),u.run(async()=>(await E("POST","membership/"+b(o)+"/"+b(r),{query:{scope:e.scope}}),a(""),n(i=>i+1),o+" is now a member of "+r+" "+be(e.scope)+"."))},p=e.scope?"Scope "+e.scope:"Every scope (global)";return d`<section aria-labelledby=${s+"-h"}>
    <h2 id=${s+"-h"}>${p}</h2>
    ${e.roles.length===0?d`<p>You hold rolegate.members ${be(e.scope)}, but no role whose every permission you hold there.</p>`:d`
    <form class="inline" onSubmit=${c}>
      <${w} id=${s+"-user"} label="User" value=${o} onInput=${a} required list=${V} />
      <div class="field">
        <label for=${s+"-role"}>Role</label>
        <select id=${s+"-role"} value=${r} onChange=${f=>l(f.currentTarget.value)}>
          ${[...e.roles].sort(X).map(f=>d`<option value=${f}>${f}</option>`)}
        </select>
      </div>
      <button type="submit" disabled=${u.busy}>Add member</button>
    </form>`}
    <${j} owner=${s} />
    ${e.roles.map(f=>d`<${Bn} key=${f+"/"+t} role=${f} scope=${e.scope} owner=${s} />`)}
  </section>`}function Bn({role:e,scope:t,owner:n}){let[o,a]=_(0),r=L(u=>O("members/"+b(e),{scope:t||void 0,limit:C,after:u}),u=>typeof u=="string"?u:u.user,[e,t,o]),l=N(n),s=r.items.filter(u=>(u.scope||"")===t);return d`<div class="delegated-role">
    <h3>${e}</h3>
    <${U} p=${{...r,items:s}} label=${"Members of "+e} id=${"members-"+e}
      empty=${"No member of "+e+" "+be(t)+"."} render=${u=>d`
      <li key=${u.user} class="row">
        <span class="grow">${u.user}</span>
        <button type="button" class="danger" aria-label=${"Remove "+u.user+" from "+e+" "+be(t)}
          onClick=${()=>l.run(async()=>(await E("DELETE","membership/"+b(u.user)+"/"+b(e),{query:{scope:t}}),a(c=>c+1),u.user+" is no longer a member of "+e+" "+be(t)+"."))}>Remove</button>
      </li>`} />
  </div>`}function un(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||"",arg3:e[3]||""}}var Vn=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Kn({onIn:e,reason:t,me:n}){let[o,a]=_(""),[r,l]=_(t),[s,u]=_(!1),c=async p=>{p.preventDefault(),u(!0),l("");try{await E("GET","roles",{query:{limit:1},key:o.trim()}),kt(o.trim()),e()}catch(f){l(f.message)}finally{u(!1)}};return d`<main class="signin" id="main">
    <h1>rolegate console</h1>
    ${n&&d`<p id="no-admin">You are signed in as <strong>${n.user}</strong>, who holds none of rolegate.admin, rolegate.read or rolegate.members. An admin key still works:</p>`}
    <form onSubmit=${c}>
      <${w} id="client-key" type="password" label="Client key" value=${o} onInput=${a} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). Each key is a namespace of its own, not a user: only AUTH_CLIENT_KEY's is the one the app's guards read. The key stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${s}>Sign in</button>
    </form>
    <${ne} text=${r} id="signin-error" />
  </main>`}function zn({me:e,person:t}){if(!e)return null;let n=e.host?"the app\u2019s namespace":"another namespace ("+e.actor+"), not the app\u2019s";return d`<span class="who" id="signed-in-as">${t?d`Signed in as <strong>${e.user}</strong>${e.admin?"":e.read?" (read only)":""}`:"Signed in with a client key"}<span class="ns" id="namespace"> · in ${n}</span></span>`}function Xn(){let[e,t]=_(!!Xe()),[n,o]=_(void 0),[a,r]=_(null),[l,s]=_(""),[u,c]=_(un()),[p,f]=_(!1),[i,m]=_(0),h=re(),$=re(!1);H(()=>{let g=()=>{$.current=!0,c(un()),f(!1),Kt()};return addEventListener("hashchange",g),Tt(R=>{Xt(),Je(),s(R),t(!1),o(null),r(null)}),Pt(R=>{m(R),setTimeout(()=>m(0),R*1e3)}),()=>removeEventListener("hashchange",g)},[]),H(()=>{e||n!==void 0||xt().then(g=>{o(g)})},[e,n]),H(()=>{e&&E("GET","whoami").then(g=>r(g),()=>{})},[e]),H(()=>{$.current&&h.current&&h.current.focus()},[u.page,u.arg,u.arg2,u.arg3]);let v=!e&&n,k=e||v&&(n.admin||n.read);if(!e&&n===void 0)return d`<main id="main"><p aria-busy="true">Loading…</p></main>`;if(!e&&(!n||!k&&n.members.length===0))return d`<${Kn} reason=${l} me=${n} onIn=${()=>{s(""),t(!0)}} />`;Et(e||n.admin);let y=d`<${zn} me=${v?n:a} person=${!!v} />`,D=v?d`<button type="button" class="signout" onClick=${()=>{o(null),s("")}}>Use a client key</button>`:d`<button type="button" class="signout" onClick=${()=>{Je(),t(!1),o(void 0),r(null)}}>Sign out</button>`,M=i>0&&d`<span class="waiting" role="status">The server is busy: trying again in ${i} s…</span>`;if(!k)return document.title="Your members \xB7 rolegate console",d`
      <header>
        <span class="brand">rolegate</span>
        ${y}
        ${D}
        ${M}
      </header>
      <main id="main">
        <h1 tabindex="-1" ref=${h}>Members you manage</h1>
        <div class="page"><${cn} me=${n} /></div>
      </main>
      <${tt} />`;let S=g=>{location.hash=g},F,z;switch(u.page){case"role":F="Role "+u.arg,z=d`<${Yt} role=${u.arg} />`;break;case"members":F="Members",z=d`<${rn} scope=${u.arg} role=${u.arg2} user=${u.arg3} go=${S} />`;break;case"user":F=u.arg?"User "+u.arg:"Users",z=u.arg?d`<${nn} user=${u.arg} go=${S} />`:d`<${en} go=${S} />`;break;case"whocan":F=u.arg?"Who can "+u.arg:"Who can",z=d`<${an} name=${u.arg} scope=${u.arg2} go=${S} />`;break;case"audit":F="Audit log",z=d`<${ln} />`;break;default:F="Roles",z=d`<${Jt} />`}return document.title=F+" \xB7 rolegate console",d`
    <a class="skip" href="#main" onClick=${g=>{g.preventDefault(),h.current&&h.current.focus()}}>Skip to content</a>
    <header class=${p?"open":""}>
      <span class="brand">rolegate</span>
      <button type="button" class="menu" aria-expanded=${p?"true":"false"} aria-controls="console-nav"
        onClick=${()=>f(!p)}>Menu</button>
      <nav aria-label="Console" id="console-nav">
        <ul>${Vn.map(([g,R])=>d`<li><a href=${"#/"+g} aria-current=${u.page===g?"page":void 0}>${R}</a></li>`)}</ul>
      </nav>
      ${y}
      ${D}
      ${M}
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${h}>${F}</h1>
      <div key=${[u.page,u.arg,u.arg2,u.arg3].join("/")} class="page">${z}</div>
    </main>
    <${tt} />`}Ge(d`<${Xn} />`,document.getElementById("app"));
